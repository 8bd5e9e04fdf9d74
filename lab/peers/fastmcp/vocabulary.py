# The 2025-11-25 form vocabulary on the FastMCP 4.0.10 server (issue #16): ask_field asks for one field of a kind
# through FastMCP's ctx.elicit with the same pydantic model the Python SDK servers use (lab/peers/py/form_models.py)
# and reports what came back. What is FastMCP's own:
#  - before sending, get_elicitation_schema (fastmcp/server/elicitation.py:369-392) renders the model with its own
#    generator and validate_elicitation_json_schema (:395-520) raises TypeError for what it does not take: not_sent;
#  - an accept's content is validated by pydantic's TypeAdapter of the model (:328-334): its ValidationError, unwrapped;
#  - the reply's envelope is parsed first, by mcp 2.3.0 (ElicitResult.model_validate, mcp/server/session.py:114-119).
# On 2026-07-28 ctx.elicit raises ToolError before sending (fastmcp/server/context.py:1088-1089): the call ends isError.
from __future__ import annotations

import os
import sys
from typing import Any

import anyio
import mcp_types as types
from fastmcp import Context
from fastmcp.exceptions import ToolError
from mcp.shared.exceptions import MCPError
from pydantic import ValidationError

sys.path.append(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "py"))
from form_models import ASK_MESSAGE, MODELS, app_accepts  # noqa: E402  (shared with the py and py1 servers)


async def ask_field(ctx: Context, kind: str, can_form: bool, timeout_s: float) -> dict[str, Any]:
    """One field through ctx.elicit with the kind's model; an AskFieldResult."""
    model = MODELS[kind]
    if not can_form:
        return {"kind": kind, "status": "unsupported"}
    try:
        with anyio.fail_after(timeout_s):
            answer = await ctx.elicit(ASK_MESSAGE, model)
    except ToolError:
        raise  # 2026-07-28: FastMCP's own refusal, in its own words
    except TypeError as error:
        return {"kind": kind, "status": "not_sent", "reason": " ".join(str(error).split())}
    except ValidationError as error:
        refused = error.title == model.__name__
        return {"kind": kind, "status": "invalid_content" if refused else "invalid_response", "rejectedBy": "sdk"}
    except ValueError:
        return {"kind": kind, "status": "invalid_response", "rejectedBy": "sdk"}
    except TimeoutError:
        return {"kind": kind, "status": "protocol_error", "code": types.REQUEST_TIMEOUT}
    except MCPError as error:
        return {"kind": kind, "status": "protocol_error", "code": error.code}
    if answer.action != "accept":
        return {"kind": kind, "status": "declined" if answer.action == "decline" else "cancelled"}
    held = answer.data.model_dump(mode="json")  # every field, set or not: defaults the SDK filled in show
    if not app_accepts(kind, held):
        return {"kind": kind, "status": "invalid_content", "rejectedBy": "app"}
    return {"kind": kind, "status": "accepted", "content": held}

# The 2025-11-25 form vocabulary on the Python 2.3.0 server (issue #16): ask_field asks for one
# field of a kind through the SDK's careful path (ctx.elicit with the kind's model from form_models.py,
# shared with the 1.29.0 server) and reports what came back. server.py registers the tool `ask_field`.
from __future__ import annotations

from typing import Any

import anyio
import mcp_types as types
from mcp.server.mcpserver import Context
from mcp.shared.exceptions import MCPError
from pydantic import ValidationError

from form_models import ASK_MESSAGE, MODELS, app_accepts

async def ask_field(ctx: Context, kind: str, can_form: bool, timeout_s: float) -> dict[str, Any]:
    """One field through the SDK's careful path (ctx.elicit with the kind's model); an AskFieldResult."""
    model = MODELS[kind]
    if not can_form:
        return {"kind": kind, "status": "unsupported"}
    try:
        with anyio.fail_after(timeout_s):
            answer = await ctx.elicit(ASK_MESSAGE, model)
    except TypeError as error:
        # render_elicitation_schema (mcp/server/elicitation.py:75-100): the model renders outside the
        # spec's PrimitiveSchemaDefinition, refused before anything is sent.
        return {"kind": kind, "status": "not_sent", "reason": " ".join(str(error).split())}
    except ValidationError:
        # send_request (mcp/server/session.py:118-122): the reply's envelope did not parse, e.g. a
        # content value outside str|int|float|bool|list[str]|None. Before ctx.elicit's own check.
        return {"kind": kind, "status": "invalid_response", "rejectedBy": "sdk"}
    except ValueError as error:
        # elicit_with_validation (elicitation.py:131-139): content the model refused, or none at all.
        refused = isinstance(error.__cause__, ValidationError)
        return {"kind": kind, "status": "invalid_content" if refused else "invalid_response", "rejectedBy": "sdk"}
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

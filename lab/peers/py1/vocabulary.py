# The 2025-11-25 form vocabulary on the Python 1.29.0 server (issue #16): ask_field asks for one field
# of a kind through 1.29.0's careful path, ctx.elicit with the same pydantic model the 2.3.0 server uses
# (lab/peers/py/form_models.py), and reports what came back. What differs is the SDK's own handling:
#  - before sending, _validate_elicitation_schema (mcp/server/elicitation.py:52-68) takes only fields
#    annotated str|int|float|bool, a sequence of str, or an Optional/Union of those; any other
#    annotation (Literal, AnyUrl, date, a nested model, list[float]) raises TypeError: not_sent;
#  - the schema is plain model_json_schema() (:124), so an Optional field goes out as anyOf [.., null];
#  - content the model refuses raises pydantic's ValidationError itself (:134), not wrapped;
#  - an accept without content raises ValueError('Unexpected elicitation action: accept') (:140-142).
from __future__ import annotations

import os
import sys
from typing import Any

import anyio
import httpx
from mcp.server.fastmcp import Context
from mcp.shared.exceptions import McpError
from pydantic import ValidationError

sys.path.append(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "py"))
from form_models import ASK_MESSAGE, MODELS, app_accepts  # noqa: E402  (shared with the 2.3.0 server)

# 1.29.0's own timeout code (mcp/shared/session.py:293-303)
TIMEOUT_CODE = int(httpx.codes.REQUEST_TIMEOUT)


async def ask_field(ctx: Context, kind: str, can_form: bool, timeout_s: float) -> dict[str, Any]:
    """One field through ctx.elicit with the kind's model; an AskFieldResult."""
    model = MODELS[kind]
    if not can_form:
        return {"kind": kind, "status": "unsupported"}
    try:
        with anyio.fail_after(timeout_s):
            answer = await ctx.elicit(ASK_MESSAGE, model)
    except TypeError as error:
        return {"kind": kind, "status": "not_sent", "reason": " ".join(str(error).split())}
    except ValidationError as error:
        # the kind's model refused the content (elicitation.py:134); any other title: the reply's
        # envelope did not parse as ElicitResult (mcp/shared/session.py:308), before the model ran
        refused = error.title == model.__name__
        return {"kind": kind, "status": "invalid_content" if refused else "invalid_response", "rejectedBy": "sdk"}
    except ValueError:
        return {"kind": kind, "status": "invalid_response", "rejectedBy": "sdk"}
    except TimeoutError:
        return {"kind": kind, "status": "protocol_error", "code": TIMEOUT_CODE}
    except McpError as error:
        return {"kind": kind, "status": "protocol_error", "code": error.error.code}
    if answer.action != "accept":
        return {"kind": kind, "status": "declined" if answer.action == "decline" else "cancelled"}
    held = answer.data.model_dump(mode="json")  # every field, set or not: defaults the SDK filled in show
    if not app_accepts(kind, held):
        return {"kind": kind, "status": "invalid_content", "rejectedBy": "app"}
    return {"kind": kind, "status": "accepted", "content": held}

# The SessionPlan a client driver is handed (lab/plan/behaviour.ts), as strict Pydantic models:
# a field the TypeScript schema does not have, or a value of the wrong type, refuses the plan.
from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)


class AnswerData(_Strict):
    action: Literal["accept", "decline", "cancel"]
    content: dict[str, Any] | None = None

    def fields(self) -> dict[str, Any]:
        """The ElicitResult's fields, content exactly as the plan gives it (absent when the plan has none)."""
        return {"action": self.action} if self.content is None else {"action": self.action, "content": self.content}


class Nested(_Strict):
    method: Literal["tools/list", "ping"]
    timeoutMs: int = Field(ge=1, le=60_000)


class Behaviour(_Strict):
    delayMs: int | None = Field(default=None, ge=0, le=10_000)
    nested: Nested | None = None
    needTool: str | None = None
    answer: AnswerData
    otherwise: AnswerData | None = None
    watchAbort: bool | None = None


class Sampling(_Strict):
    """Also the roots callback's plan (lab/plan/behaviour.ts RootsBehaviour)."""
    delayMs: int = Field(ge=0, le=10_000)
    nested: Nested | None = None


# lab/plan/behaviour.ts SYNTHETIC_COMPLETION: what a sampling callback returns (no model is called)
SYNTHETIC_TEXT = "synthetic completion (no model was called)"
SYNTHETIC_MODEL = "lab-synthetic"
# lab/plan/behaviour.ts SYNTHETIC_ROOTS: what a roots callback returns
SYNTHETIC_ROOTS = [("file:///synthetic/lab-root-a", "lab-root-a"), ("file:///synthetic/lab-root-b", "lab-root-b")]


class CallData(_Strict):
    label: str = Field(min_length=1)
    tool: str = "calculate"
    args: dict[str, Any] = Field(default_factory=dict)
    callback: Behaviour | None = None
    giveUpAfterMs: int | None = Field(default=None, ge=1, le=60_000)
    awaitCallbacks: bool | None = None
    sampling: Sampling | None = None
    roots: Sampling | None = None


class SessionPlan(_Strict):
    scenario: str = Field(min_length=1)
    capabilities: dict[str, Any]
    listToolsFirst: bool
    calls: list[CallData] = Field(min_length=1)
    callTimeoutMs: int = Field(ge=1)


# What mcp's own ClientSession.initialize declares whenever an elicitation callback is set (1.30.0:
# mcp/client/session.py:166-174; 2.3.0: :634-636): a client that initializes with it can declare no other.
DECLARABLE = ({"form": {}}, {"form": {}, "url": {}})


def undeclarable(plan: SessionPlan, framework: str, declares: str) -> str | None:
    """The refusal of a plan whose elicitation declaration `framework` cannot make (`declares`: where its mcp says
    what it declares); None when it can."""
    declared = plan.capabilities.get("elicitation")
    if declared is None or declared in DECLARABLE:
        return None
    return (f"{framework} cannot declare elicitation {declared}: it initializes with mcp's own initialize, which declares "
            f"{{form, url}} whenever a callback is set ({declares})")

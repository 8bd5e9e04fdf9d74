# The 2025-11-25 form vocabulary's pydantic models (issue #16), shared by the Python servers of both
# SDK lines and FastMCP (lab_server.py's ask_field, each server.py its SDK's failures): for each kind
# of lab/plan/vocabulary.ts, the model an app author hands to ctx.elicit, and the app's own strict check
# of what the model holds afterwards. The models use pydantic's defaults (lax mode, extra keys ignored),
# as the SDK's README example writes them (a plain BaseModel with Field), so whatever an SDK coerces,
# fills in or lets through shows in `content`, not hidden by the lab. Pure pydantic: no SDK import.
from __future__ import annotations

import datetime as dt
import re
from collections.abc import Callable
from typing import Any, Literal

from pydantic import AnyUrl, BaseModel, Field

ASK_MESSAGE = "Synthetic: one field of the form vocabulary (nothing real is asked)."
COLOURS = ("red", "green", "blue")
TITLES = [{"const": "r", "title": "Red"}, {"const": "g", "title": "Green"}]
Colour = Literal["red", "green", "blue"]
Letter = Literal["r", "g"]


def about(kind: str) -> str:
    return f"synthetic {kind.replace('_', ' ')} field"


def one_of_titles(schema: dict[str, Any]) -> None:
    """A titled single select: the spec's oneOf of const/title in place of pydantic's bare enum."""
    schema.pop("enum", None)
    schema["oneOf"] = [dict(t) for t in TITLES]


class Text(BaseModel):
    value: str = Field(min_length=2, max_length=8, description=about("text"))


class Email(BaseModel):
    # pydantic's EmailStr needs the email-validator package, which the SDK does not pull in (not in
    # the venv): the format is only advertised to the client, and only the app's check tests it.
    value: str = Field(description=about("email"), json_schema_extra={"format": "email"})


class Uri(BaseModel):
    value: AnyUrl = Field(description=about("uri"))


class Date(BaseModel):
    value: dt.date = Field(description=about("date"))


class DateTime(BaseModel):
    value: dt.datetime = Field(description=about("date_time"))


class Integer(BaseModel):
    value: int = Field(ge=1, le=10, description=about("integer"))


class Number(BaseModel):
    value: float = Field(ge=0.5, le=9.5, description=about("number"))


class Boolean(BaseModel):
    value: bool = Field(description=about("boolean"))


class EnumUntitled(BaseModel):
    value: Colour = Field(description=about("enum_untitled"))


class EnumTitled(BaseModel):
    value: Letter = Field(description=about("enum_titled"), json_schema_extra=one_of_titles)


class EnumLegacy(BaseModel):
    value: Letter = Field(description=about("enum_legacy"), json_schema_extra={"enumNames": ["Red", "Green"]})


class MultiUntitled(BaseModel):
    value: list[Colour] = Field(min_length=1, max_length=2, description=about("multi_untitled"))


class MultiTitled(BaseModel):
    value: list[Letter] = Field(min_length=1, max_length=2, description=about("multi_titled"),
                                json_schema_extra={"items": {"anyOf": [dict(t) for t in TITLES]}})


class Defaults(BaseModel):
    text: str = "hello"
    count: int = Field(default=5, ge=1, le=10)
    ratio: float = 1.5
    flag: bool = True
    colour: Colour = "green"
    colours: list[Colour] = Field(default=["red", "blue"])


class OptionalText(BaseModel):
    value: str | None = Field(default=None, description=about("optional_text"))


class Address(BaseModel):
    street: str


class NestedObject(BaseModel):
    value: Address = Field(description=about("nested_object"))


class ArrayOfNumbers(BaseModel):
    value: list[float] = Field(description=about("array_of_numbers"))


# The app's own check, on what the app holds (model_dump(mode="json")): exact types (a bool is no
# number), ranges, formats, enum members, distinct items; the same rules as the TS servers' `app`.
EMAIL = re.compile(r"^[^@\s]+@[^@\s]+\.[^@\s]+$")
URI = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*:\S+$")
DATE = re.compile(r"^\d{4}-\d{2}-\d{2}$")
DATE_TIME = re.compile(r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$")  # RFC 3339: offset required


def is_int(v: Any) -> bool:
    return type(v) is int


def is_number(v: Any) -> bool:
    return type(v) in (int, float)


def is_date(v: Any) -> bool:
    if not (isinstance(v, str) and DATE.match(v)):
        return False
    try:
        dt.date.fromisoformat(v)
    except ValueError:
        return False
    return True


def is_selection(v: Any, allowed: tuple[str, ...]) -> bool:
    return (type(v) is list and 1 <= len(v) <= 2 and len(set(v)) == len(v)
            and all(isinstance(x, str) and x in allowed for x in v))


VALUE_CHECKS: dict[str, Callable[[Any], bool]] = {
    "text": lambda v: isinstance(v, str) and 2 <= len(v) <= 8,
    "email": lambda v: isinstance(v, str) and EMAIL.match(v) is not None,
    "uri": lambda v: isinstance(v, str) and URI.match(v) is not None,
    "date": is_date,
    "date_time": lambda v: isinstance(v, str) and DATE_TIME.match(v) is not None,
    "integer": lambda v: is_int(v) and 1 <= v <= 10,
    "number": lambda v: is_number(v) and 0.5 <= v <= 9.5,
    "boolean": lambda v: type(v) is bool,
    "enum_untitled": lambda v: v in COLOURS,
    "enum_titled": lambda v: v in ("r", "g"),
    "enum_legacy": lambda v: v in ("r", "g"),
    "multi_untitled": lambda v: is_selection(v, COLOURS),
    "multi_titled": lambda v: is_selection(v, ("r", "g")),
    "optional_text": lambda v: v is None or isinstance(v, str),  # None: left out (the model's default)
    "nested_object": lambda v: type(v) is dict and set(v) == {"street"} and isinstance(v["street"], str),
    "array_of_numbers": lambda v: type(v) is list and all(is_number(x) for x in v),
}


def defaults_check(held: dict[str, Any]) -> bool:
    colours = held.get("colours")
    return (set(held) == {"text", "count", "ratio", "flag", "colour", "colours"}
            and isinstance(held["text"], str) and is_int(held["count"]) and 1 <= held["count"] <= 10
            and is_number(held["ratio"]) and type(held["flag"]) is bool and held["colour"] in COLOURS
            and type(colours) is list and all(c in COLOURS for c in colours))


MODELS: dict[str, type[BaseModel]] = {
    "text": Text, "email": Email, "uri": Uri, "date": Date, "date_time": DateTime, "integer": Integer,
    "number": Number, "boolean": Boolean, "enum_untitled": EnumUntitled, "enum_titled": EnumTitled,
    "enum_legacy": EnumLegacy, "multi_untitled": MultiUntitled, "multi_titled": MultiTitled,
    "defaults": Defaults, "optional_text": OptionalText, "nested_object": NestedObject,
    "array_of_numbers": ArrayOfNumbers,
}


def app_accepts(kind: str, held: dict[str, Any]) -> bool:
    if kind == "defaults":
        return defaults_check(held)
    return set(held) == {"value"} and VALUE_CHECKS[kind](held["value"])

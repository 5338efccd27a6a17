"""One exception hierarchy for every layer. Each class carries its HTTP status and a stable code.

Titles and details are English gettext message ids; the HTTP layer translates them with the
catalogs under `locales/` (see `service.catalogs`). An expected absence (no match) is a result,
never an exception.
"""

from __future__ import annotations

from typing import Any, ClassVar


def N_(message: str) -> str:
    """Mark a string for extraction into the gettext catalogs without translating it here."""
    return message


class RemedyError(Exception):
    """Base class: `status`, `code`, `title` and a `detail` template filled from `params`."""

    status: ClassVar[int] = 500
    code: ClassVar[str] = "internal-error"
    title: ClassVar[str] = N_("Internal error")
    detail: ClassVar[str] = N_("Something went wrong on our side; the request id identifies it in the logs.")

    def __init__(self, **params: Any) -> None:
        super().__init__(self.code, params)
        self.params = params
        self.extra: dict[str, Any] = {}


class BadRequest(RemedyError):
    status = 400
    code = "bad-request"
    title = N_("Bad request")
    detail = N_("The request could not be read.")


class EmptyBody(BadRequest):
    code = "empty-body"
    title = N_("Empty request body")
    detail = N_("This endpoint needs a JSON object in the request body.")


class MalformedJson(BadRequest):
    code = "malformed-json"
    title = N_("Malformed JSON")
    detail = N_("The request body is not valid JSON.")


class InvalidRequest(RemedyError):
    status = 422
    code = "invalid-request"
    title = N_("Invalid request")
    detail = N_("The request does not match the expected schema; `errors` lists each problem.")


class MissingInput(InvalidRequest):
    code = "missing-input"
    title = N_("Nothing to diagnose")
    detail = N_("Send at least one of query, symptom or config.")


class UnknownSymptom(InvalidRequest):
    code = "unknown-symptom"
    title = N_("Unknown symptom")
    detail = N_("There is no symptom with the id {id}.")


class UnknownModelFamily(InvalidRequest):
    code = "unknown-model-family"
    title = N_("Unknown model family")
    detail = N_("There is no model family with the id {id}.")


class UnsupportedInput(InvalidRequest):
    code = "unsupported-input"
    title = N_("Input not supported yet")
    detail = N_("The field {field} is not supported by this version of the service.")


class NotFound(RemedyError):
    status = 404
    code = "not-found"
    title = N_("Not found")
    detail = N_("There is nothing at this address.")


class UnknownGuide(NotFound):
    code = "unknown-guide"
    title = N_("Unknown guide")
    detail = N_("There is no guide with the id {id}.")


class UnknownSymptomPath(NotFound):
    code = "unknown-symptom"
    title = N_("Unknown symptom")
    detail = N_("There is no symptom with the id {id}.")


class MethodNotAllowed(RemedyError):
    status = 405
    code = "method-not-allowed"
    title = N_("Method not allowed")
    detail = N_("This address does not accept that method.")


class PayloadTooLarge(RemedyError):
    status = 413
    code = "payload-too-large"
    title = N_("Request too large")
    detail = N_("The request body is larger than {limit} bytes.")


class UnsupportedMediaType(RemedyError):
    status = 415
    code = "unsupported-media-type"
    title = N_("Unsupported media type")
    detail = N_("Send the request body as application/json.")


class ContentInvalid(RemedyError):
    """The knowledge files are broken: the service refuses to start."""

    code = "content-invalid"
    title = N_("Knowledge content is invalid")
    detail = N_("The knowledge files failed validation.")

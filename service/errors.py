"""One exception hierarchy for every layer. Each class carries its HTTP status and a stable code.

Titles and details are English gettext message ids; the HTTP layer translates them with the
catalogs under `locales/` (see `remedy.catalogs`). An expected absence (no match) is a result,
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


class InvalidUtf8(BadRequest):
    code = "invalid-utf8"
    title = N_("Invalid UTF-8")
    detail = N_("The request body is not valid UTF-8 text.")


class JsonTooDeep(BadRequest):
    code = "json-too-deep"
    title = N_("JSON nested too deeply")
    detail = N_("The request body nests arrays or objects more than {limit} levels deep.")


class NotReady(RemedyError):
    status = 503
    code = "not-ready"
    title = N_("Not ready")
    detail = N_("The knowledge index is still being built; try again in a moment.")


class InvalidRequest(RemedyError):
    status = 422
    code = "invalid-request"
    title = N_("Invalid request")
    detail = N_("The request does not match the expected schema; `errors` lists each problem.")


class MissingInput(InvalidRequest):
    code = "missing-input"
    title = N_("Nothing to diagnose")
    detail = N_("Send at least one of query, symptom or config.")


class MissingConfig(InvalidRequest):
    code = "missing-config"
    title = N_("No config to check")
    detail = N_("Send the job config as config (an object) or config_yaml (text).")


class UnknownSymptom(InvalidRequest):
    code = "unknown-symptom"
    title = N_("Unknown symptom")
    detail = N_("There is no symptom with the id {id}.")


class UnknownModelFamily(InvalidRequest):
    code = "unknown-model-family"
    title = N_("Unknown model family")
    detail = N_("There is no model family with the id {id}.")


class ConflictingInput(InvalidRequest):
    code = "conflicting-input"
    title = N_("Conflicting input")
    detail = N_("Send either {first} or {second}, not both.")


class InvalidYaml(InvalidRequest):
    code = "invalid-yaml"
    title = N_("Invalid YAML")
    detail = N_(
        "The YAML could not be read at line {line}, column {column}: {problem} "
        "(in the part that starts at line {context_line})."
    )


class YamlTooComplex(InvalidRequest):
    code = "yaml-too-complex"
    title = N_("YAML too complex")
    detail = N_("The YAML expands to more than {limit} values (aliases included); it is refused.")


class YamlUnsafeTag(InvalidRequest):
    code = "yaml-unsafe-tag"
    title = N_("YAML tag not allowed")
    detail = N_("The YAML uses a tag that would build an object ({tag}); only plain data is accepted.")


class InvalidConfig(InvalidRequest):
    code = "invalid-config"
    title = N_("Not an AI Toolkit job config")
    detail = N_("The config has no training process: {reason}.")


class NotATrainingJob(InvalidRequest):
    code = "not-a-training-job"
    title = N_("Not a training job")
    detail = N_("This is a `{job}` job, not a training job; only training jobs can be checked.")


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


class RequestTimeout(RemedyError):
    status = 408
    code = "request-timeout"
    title = N_("Request timeout")
    detail = N_("The request body did not arrive within {seconds} seconds.")


class UriTooLong(RemedyError):
    status = 414
    code = "uri-too-long"
    title = N_("Address too long")
    detail = N_("The request's address is longer than {limit} bytes.")


class HeadersTooLarge(RemedyError):
    status = 431
    code = "headers-too-large"
    title = N_("Request headers too large")
    detail = N_("The request's headers are larger than {limit} bytes or more than {count} fields.")


class Overloaded(RemedyError):
    """Answered with `Retry-After` when a worker already computes as many requests as it may."""

    status = 503
    code = "overloaded"
    title = N_("Busy")
    detail = N_("This worker is answering as many requests as it can; try again in {seconds} seconds.")


class UnsupportedMediaType(RemedyError):
    status = 415
    code = "unsupported-media-type"
    title = N_("Unsupported media type")
    detail = N_("Send the request body as application/json.")


# Labels the CLI and pages show for finding severities and risk levels.
SEVERITY_LABELS = (N_("high"), N_("warning"), N_("info"))
RISK_LABELS = (N_("high"), N_("elevated"), N_("normal"), N_("unknown"))


class ContentInvalid(RemedyError):
    """The knowledge files are broken: the service refuses to start."""

    code = "content-invalid"
    title = N_("Knowledge content is invalid")
    detail = N_("The knowledge files failed validation.")

from django.http import HttpResponse
from django.test import RequestFactory
from django_htmx.middleware import HtmxMiddleware

from trainer.core.web.htmx import redirect_page, wants_partial


def _request(**headers):
    request = RequestFactory().get("/", **headers)
    HtmxMiddleware(lambda r: HttpResponse())(request)
    return request


def test_only_an_htmx_request_that_is_not_a_history_restore_wants_a_partial():
    assert not wants_partial(_request())
    assert wants_partial(_request(HTTP_HX_REQUEST="true"))
    assert not wants_partial(
        _request(HTTP_HX_REQUEST="true", HTTP_HX_HISTORY_RESTORE_REQUEST="true")
    )


def test_a_page_redirect_from_htmx_asks_the_browser_to_navigate():
    assert redirect_page(_request(), "/x/")["Location"] == "/x/"
    htmx = redirect_page(_request(HTTP_HX_REQUEST="true"), "/x/")
    assert (htmx.status_code, htmx["HX-Redirect"]) == (204, "/x/")

"""The help pages in a real browser: every language loads clean, the troubleshooter works by keyboard and
without JavaScript, the language switcher keeps the page. Screenshots land in tests/artifacts/."""

from __future__ import annotations

from typing import Any

import pytest

from tests.browser.conftest import ARTIFACTS
from tests.conftest import LANGS

GUIDE = "gradient-checkpointing-oom"


def open_page(
    browser: Any, url: str, width: int = 1280, height: int = 900, javascript: bool = True
) -> tuple[Any, list[str]]:
    context = browser.new_context(viewport={"width": width, "height": height}, java_script_enabled=javascript)
    page = context.new_page()
    problems: list[str] = []
    page.on("console", lambda m: problems.append(f"{m.type}: {m.text}") if m.type in ("error", "warning") else None)
    page.on("pageerror", lambda e: problems.append(f"pageerror: {e}"))
    page.on("requestfailed", lambda r: problems.append(f"failed: {r.url}"))
    page.goto(url)
    return page, problems


@pytest.mark.parametrize("lang", LANGS)
def test_guide_page_loads_clean(browser: Any, live_url: str, lang: str) -> None:
    page, problems = open_page(browser, f"{live_url}/help/{lang}/{GUIDE}")
    assert page.locator("html").get_attribute("lang") == lang
    assert page.locator("h1").count() == 1
    assert page.locator("table.risk tbody tr").count() == 3
    assert page.locator("nav.toc > ul > li > a").count() == 11  # the titled sections
    assert page.locator("nav.toc li li a").count() == 3  # the FAQ entries under theirs
    page.screenshot(path=str(ARTIFACTS / f"guide-{lang}.png"), full_page=True)
    assert not problems, problems
    page.context.close()


@pytest.mark.parametrize("lang", ["en", "ko"])
def test_guide_on_a_phone(browser: Any, live_url: str, lang: str) -> None:
    page, problems = open_page(browser, f"{live_url}/help/{lang}/{GUIDE}", width=390, height=844)
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 390, "the page scrolls sideways on a phone"
    page.screenshot(path=str(ARTIFACTS / f"guide-{lang}-phone.png"))
    assert not problems, problems
    page.context.close()


@pytest.mark.parametrize("lang", LANGS)
def test_troubleshooter_by_keyboard(browser: Any, live_url: str, lang: str) -> None:
    page, problems = open_page(browser, f"{live_url}/help/{lang}/troubleshoot")
    page.locator("#q").focus()
    page.keyboard.type("CUDA out of memory at step 2, gradient checkpointing off, batch 2")
    page.keyboard.press("Tab")  # to the symptom select
    page.keyboard.press("Tab")  # into the GC radio group
    page.keyboard.press("ArrowLeft")  # from the checked "Not sure" to "Off"
    page.locator("button[type=submit]").focus()
    page.keyboard.press("Enter")
    page.wait_for_selector("#steps li[data-step]")
    steps = page.locator("#steps li").evaluate_all("els => els.map(e => e.dataset.step)")
    assert steps[0] == "enable-gradient-checkpointing"
    assert "q=" in page.url  # the address keeps the query, so the answer can be shared
    page.screenshot(path=str(ARTIFACTS / f"troubleshoot-{lang}.png"), full_page=True)
    assert not problems, problems
    page.context.close()


def test_troubleshooter_without_javascript(browser: Any, live_url: str) -> None:
    page, problems = open_page(browser, f"{live_url}/help/de/troubleshoot", javascript=False)
    page.fill("#q", "OOM beim ersten Preview")
    page.click("button[type=submit]")
    page.wait_for_selector("#steps li[data-step]")
    steps = page.locator("#steps li").evaluate_all("els => els.map(e => e.dataset.step)")
    assert "cheapen-preview-sampling" in steps
    page.screenshot(path=str(ARTIFACTS / "troubleshoot-de-nojs.png"), full_page=True)
    assert not problems, problems
    page.context.close()


def test_language_switcher_keeps_the_page(browser: Any, live_url: str) -> None:
    page, problems = open_page(browser, f"{live_url}/help/en/troubleshoot?symptom=oom-bucket-spike")
    page.click("nav.langs a[hreflang=fr]")
    page.wait_for_url("**/help/fr/troubleshoot?symptom=oom-bucket-spike")
    assert page.locator("html").get_attribute("lang") == "fr"
    assert page.locator("#steps li[data-step=drop-highest-bucket]").count() == 1
    page.click("nav.sections a[href$='gradient-checkpointing-oom']")
    page.click("nav.langs a[hreflang=ko]")
    page.wait_for_url(f"**/help/ko/{GUIDE}")
    assert not problems, problems
    page.context.close()

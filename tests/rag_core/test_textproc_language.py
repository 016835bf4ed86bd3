"""Language detection for documents and questions."""

from __future__ import annotations

import pytest

from rag_core.textproc import cjk_share, detect_language, has_cjk, is_chinese
from tests.fixtures import make_docs


@pytest.mark.parametrize(
    ("text", "language"),
    [
        (make_docs.ZH_TXT, "zh"),
        ("\n".join(line for page in make_docs.ZH_PAGES for line in page), "zh"),
        ("\n".join(line for page in make_docs.EN_PAGES for line in page), "en"),
        (make_docs.MD_TEXT, "en"),
        ("本协议（Software License Agreement）由 Licensor Corp. 与 Licensee Ltd. 签订。", "mixed"),
        (
            "The Lessor 北京华昌盛科技有限公司 and the Lessee Shanghai Mingyuan Trading agree as follows.",
            "mixed",
        ),
        ("", "en"),
        ("12345 67.89", "en"),
    ],
)
def test_detect_language(text: str, language: str) -> None:
    assert detect_language(text) == language


def test_an_english_contract_naming_a_chinese_party_stays_english() -> None:
    text = " ".join(line for page in make_docs.EN_PAGES for line in page) + " 华昌盛"
    assert detect_language(text) == "en"


@pytest.mark.parametrize(
    ("question", "chinese"),
    [
        ("违约金是多少？", True),
        ("合同中 Termination 条款是什么？", True),
        ("What is the 违约金 in the lease?", False),
        ("What is the termination notice period?", False),
        ("", False),
        ("2024", False),
    ],
)
def test_is_chinese_for_questions(question: str, chinese: bool) -> None:
    assert is_chinese(question) is chinese


def test_share_and_presence() -> None:
    assert cjk_share("ab合同") == pytest.approx(0.5)
    assert cjk_share("plain ascii") == 0.0
    assert has_cjk("x 合 y")
    assert not has_cjk("Ｆｕｌｌ－ｗｉｄｔｈ，")

from __future__ import annotations

from rag_core import textproc


def test_english_words_are_stemmed_so_inflections_meet() -> None:
    a, b, c = (textproc.tokens(w) for w in ("terminate", "terminated", "termination"))
    assert a == b == c


def test_chinese_tokens_and_numbers_are_kept() -> None:
    toks = textproc.tokens("违约金为合同总额的10%。")
    assert "违约金" in toks and "10%" in toks and "。" not in toks


def test_query_tokens_drop_stopwords_but_never_everything() -> None:
    assert "the" not in textproc.query_tokens("What is the governing law?")
    assert textproc.query_tokens("govern") == textproc.tokens("governing")
    assert textproc.query_tokens("the") == ["the"]
    assert "是否" not in textproc.query_tokens("合同是否可以解除")


def test_bigrams_of_cjk_runs_only() -> None:
    assert textproc.bigrams("华昌盛 ABC 科技") == ["华昌", "昌盛", "科技"]
    assert textproc.bigrams("甲") == ["甲"]
    assert textproc.bigrams("no chinese") == []


def test_fts_query_strips_query_syntax() -> None:
    assert textproc.fts_query(['"a"', "b:c", "a", "(d)"]) == "a bc d"


def test_defined_terms_and_parties() -> None:
    en = 'This Agreement is between Northwind Analytics LLC ("Provider") and Contoso Retail Inc. ("Client").'
    zh = "甲方（出租方）：北京华昌盛科技有限公司\n乙方（承租方）：上海明远贸易有限公司\n（以下简称“租赁物”）"
    assert {"Provider", "Client"} <= set(textproc.defined_terms(en))
    terms = textproc.defined_terms(zh)
    assert "北京华昌盛科技有限公司" in terms and "租赁物" in terms


def test_british_spellings_fold_to_american_letter_for_letter() -> None:
    pairs = [("licence", "license"), ("licenced", "licensed"), ("defence", "defense"), ("organisation", "organization"),
             ("authorised", "authorized"), ("analyse", "analyze"), ("centre", "center")]  # fmt: skip
    for british, american in pairs:
        assert textproc.fold_spelling(british) == textproc.fold_spelling(american) == american
    text = "the licence of the licensee, authorised at the centre"
    assert len(textproc.fold_spelling(text)) == len(text)  # offsets into the lowered text still hold
    assert textproc.fold_spelling("this is the fee") == "this is the fee"


def test_plain_markdown_drops_heading_hashes_and_bold_only() -> None:
    text = "## 第八条 争议解决\n\n因本合同发生的争议，由**甲方**所在地人民法院管辖。\n### 8.1 Notices ##\nSee #3 and C# code."
    assert textproc.plain_markdown(text) == (
        "第八条 争议解决\n\n因本合同发生的争议，由甲方所在地人民法院管辖。\n8.1 Notices\nSee #3 and C# code."
    )


def test_one_line_keeps_no_space_between_chinese_characters() -> None:
    from rag_core.textproc import one_line

    assert one_line("移交剩\n余的预收物业服务费，\n并退出。") == "移交剩余的预收物业服务费，并退出。"
    assert one_line("3.1 本合同服务费  USD 5 per\n month") == "3.1 本合同服务费 USD 5 per month"

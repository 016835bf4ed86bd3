"""Chunking: exact offsets, clause paths, parent/child containment, determinism, sizes."""

from __future__ import annotations

import itertools
import re
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rag_core.chunking import (
    ClauseBlock,
    chunk_document,
    clause_blocks,
    clause_within,
    embed_text,
    find_cut,
    find_headings,
    has_text,
    is_safe_boundary,
    next_start,
    split_range,
)
from rag_core.ingest.extract import extract
from rag_core.models import Chunk, ExtractedDocument, PageSpan
from rag_core.settings import ChunkingSettings, IngestSettings
from tests.fixtures import make_docs

CUAD_DIR = Path("/work/shared/data/legalbench-rag-mini-cuad/corpus")
CUAD_FILES = [
    "FLOTEKINDUSTRIESINCCN_05_09_2019-EX-10.1-SUPPLY AGREEMENT.txt",
    "KINGPHARMACEUTICALSINC_08_09_2006-EX-10.1-PROMOTION AGREEMENT.txt",
    "ALCOSTORESINC_12_14_2005-EX-10.26-AGENCY AGREEMENT.txt",
]
DOC_ID = "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08"

SETTING_VARIANTS = {
    "default": ChunkingSettings(),
    "plain": ChunkingSettings(parent_child=False),
    "plain-small": ChunkingSettings(parent_child=False, chunk_size=120, chunk_overlap=30),
    "no-clauses": ChunkingSettings(clause_aware=False),
    "no-clauses-plain": ChunkingSettings(
        clause_aware=False, parent_child=False, chunk_size=200, chunk_overlap=60
    ),
}


@pytest.fixture(scope="module")
def extracted(tmp_path_factory: pytest.TempPathFactory) -> dict[str, ExtractedDocument]:
    paths = make_docs.write_all(tmp_path_factory.mktemp("docs"), include_bad=False)
    out = {key: extract(path.read_bytes(), path.name, IngestSettings()) for key, path in paths.items()}
    for name in CUAD_FILES:
        path = CUAD_DIR / name
        if path.exists():
            out[name] = extract(path.read_bytes(), path.name, IngestSettings())
    return out


def _size_limit(chunk: Chunk, cs: ChunkingSettings) -> int:
    return {"plain": cs.chunk_size, "child": cs.child_size, "parent": cs.parent_size}[chunk.kind]


def _trimmed(text: str, start: int, end: int) -> bool:
    """No whitespace at either end, except a space that carries a combining mark (kept whole)."""
    piece = text[start:end]
    lead = len(piece) - len(piece.lstrip())
    trail = len(piece) - len(piece.rstrip())
    return (lead == 0 or not is_safe_boundary(text, start + lead)) and trail == 0


def _check_invariants(text: str, chunks: list[Chunk], cs: ChunkingSettings) -> None:
    """The invariants every chunking must keep, whatever the document."""
    assert chunks or not text.strip()
    ids = [c.id for c in chunks]
    assert len(set(ids)) == len(ids)
    by_id = {c.id: c for c in chunks}
    for c in chunks:
        assert text[c.start : c.end] == c.text
        assert 0 <= c.start < c.end <= len(text)
        assert _trimmed(text, c.start, c.end), "chunks are trimmed"
        assert len(c.text) <= _size_limit(c, cs)
        assert re.fullmatch(rf"{DOC_ID[:16]}-{c.kind[0]}\d{{5}}", c.id)
        assert c.id.endswith(f"{c.ordinal:05d}")
        if c.kind == "child":
            parent = by_id[c.parent_id]
            assert parent.kind == "parent"
            assert parent.start <= c.start < c.end <= parent.end
        else:
            assert c.parent_id == ""
    kinds = {c.kind for c in chunks}
    assert kinds <= ({"parent", "child"} if cs.parent_child else {"plain"})
    # children tile the text: neighbours share at most the child overlap, even where parents overlap
    kids = sorted((c for c in chunks if c.kind == "child"), key=lambda c: c.start)
    for a, b in itertools.pairwise(kids):
        assert b.start >= a.end - cs.child_overlap, (a.start, a.end, b.start, b.end)
    # every non-whitespace character is indexed (in a plain chunk or a child)
    covered = bytearray(len(text))
    for c in chunks:
        if c.kind != "parent":
            covered[c.start : c.end] = b"\x01" * (c.end - c.start)
    missing = [i for i, ch in enumerate(text) if not covered[i] and not ch.isspace()]
    assert not missing, f"uncovered text at {missing[:5]}"


@pytest.mark.parametrize("variant", sorted(SETTING_VARIANTS))
def test_offsets_exact_on_all_documents(extracted: dict[str, ExtractedDocument], variant: str) -> None:
    cs = SETTING_VARIANTS[variant]
    assert len(extracted) >= len(make_docs.GOOD_WRITERS)
    for doc in extracted.values():
        chunks = chunk_document(doc.text, doc.spans, cs, DOC_ID)
        _check_invariants(doc.text, chunks, cs)


def test_real_cuad_files_are_included(extracted: dict[str, ExtractedDocument]) -> None:
    if not CUAD_DIR.exists():
        pytest.skip("CUAD corpus not present")
    assert all(name in extracted for name in CUAD_FILES)


def test_ids_are_deterministic(extracted: dict[str, ExtractedDocument]) -> None:
    doc = extracted["zh_pdf"]
    first = chunk_document(doc.text, doc.spans, ChunkingSettings(), DOC_ID)
    second = chunk_document(doc.text, doc.spans, ChunkingSettings(), DOC_ID)
    assert [(c.id, c.start, c.end, c.clause) for c in first] == [
        (c.id, c.start, c.end, c.clause) for c in second
    ]
    parents = [c for c in first if c.kind == "parent"]
    assert [c.ordinal for c in parents] == list(range(len(parents)))


def _chunk_with(chunks: list[Chunk], needle: str, kind: str) -> Chunk:
    squashed = "".join(needle.split())
    return next(c for c in chunks if c.kind == kind and squashed in "".join(c.text.split()))


def test_clause_paths_and_pages_on_chinese_contract(extracted: dict[str, ExtractedDocument]) -> None:
    doc = extracted["zh_pdf"]
    for kind, cs in (("child", ChunkingSettings()), ("plain", ChunkingSettings(parent_child=False))):
        chunks = chunk_document(doc.text, doc.spans, cs, DOC_ID)
        penalty = _chunk_with(chunks, make_docs.ZH_FACTS["penalty"], kind)
        # 第六–八条 are tiny and share one chunk, labelled as the range they cover
        assert penalty.clause.startswith("第三章 违约责任 > 第六条 违约金")
        assert penalty.page == 3
        rent = _chunk_with(chunks, make_docs.ZH_FACTS["rent"], kind)
        assert rent.clause == "第二章 租金与押金 > 第三条 租金"  # a whole Chinese clause is never tiny
        assert rent.page == 2
        long_clause = [c for c in chunks if c.kind == kind and c.clause.endswith("第五条 房屋使用与维修")]
        assert long_clause, "the long clause keeps its path in every piece"
    # 第六–八条 are short (< tiny_clause_chars) but each is a whole sentence: each keeps its own path
    plain = chunk_document(doc.text, doc.spans, ChunkingSettings(parent_child=False), DOC_ID)
    arbitration = _chunk_with(plain, make_docs.ZH_FACTS["arbitration"], "plain")
    assert arbitration.clause == "第三章 违约责任 > 第八条 争议解决"


def test_clause_paths_and_pages_on_english_contract(extracted: dict[str, ExtractedDocument]) -> None:
    doc = extracted["en_pdf"]
    chunks = chunk_document(doc.text, doc.spans, ChunkingSettings(), DOC_ID)
    cause = _chunk_with(chunks, make_docs.EN_FACTS["cause"], "child")
    assert cause.clause == "Section 7 Termination > 7.2 Termination for Cause"
    assert cause.page == 2
    law = _chunk_with(chunks, make_docs.EN_FACTS["law"], "child")
    assert law.clause == "Section 9 Governing Law"
    assert law.page == 3
    fee = _chunk_with(chunks, make_docs.EN_FACTS["fee"], "child")
    assert fee.clause == "Section 2 Payment"


def test_docx_anchor_and_clause(extracted: dict[str, ExtractedDocument]) -> None:
    doc = extracted["docx"]
    cs = ChunkingSettings(parent_child=False, chunk_size=200)  # sections are not tiny at this size
    chunks = chunk_document(doc.text, doc.spans, cs, DOC_ID)
    term = _chunk_with(chunks, make_docs.DOCX_TERM_SENTENCE, "plain")
    assert term.anchor == "1 Definitions > 1.2 Term"
    assert term.clause == "1 Definitions > 1.2 Term"
    assert term.page is None
    fees = _chunk_with(chunks, "License fee | USD 20,000", "plain")
    assert fees.anchor == "2 Fees"


def _fits_alone(block: ClauseBlock, text: str, size: int, tiny: int) -> bool:
    """A clause with a body, not tiny, that fits in one chunk: it must get a chunk of its own."""
    return has_text(text, block.body_start, block.end) and tiny <= block.size <= size


@pytest.mark.parametrize("name", ["zh_pdf", "en_pdf", "docx", "md", "zh_txt_gb18030", *CUAD_FILES])
def test_no_chunk_spans_two_clauses_that_fit(extracted: dict[str, ExtractedDocument], name: str) -> None:
    if name not in extracted:
        pytest.skip("CUAD corpus not present")
    doc = extracted[name]
    cs = ChunkingSettings(parent_child=False)
    blocks = clause_blocks(doc.text, doc.spans)
    chunks = chunk_document(doc.text, doc.spans, cs, DOC_ID)
    for block in blocks:
        if not _fits_alone(block, doc.text, cs.chunk_size, cs.tiny_clause_chars):
            continue
        for c in chunks:
            overlaps = c.start < block.end and block.start < c.end
            if overlaps:
                # the chunk holding part of this clause holds nothing of another clause's body
                assert c.end <= block.end, (block.path, c.clause)
                head = doc.text[c.start : block.start]
                assert not head.strip() or not any(
                    b.end <= block.start and b.end > c.start and has_text(doc.text, b.body_start, b.end)
                    for b in blocks
                ), (block.path, c.clause)


def test_small_clauses_of_one_parent_are_merged_and_labelled_as_a_range() -> None:
    """Clause stubs ("见附件一", no whole sentence) merge; whole Chinese sentences never do (a 30-character
    Chinese clause states a whole obligation, and packed clauses were judged as one passage)."""
    text = (
        "第一章 总则\n第一条 定义\n见附件一\n第二条 范围\n见附件二\n第二章 费用\n第三条 价款\n价款为100元。\n"
    )
    cs = ChunkingSettings(parent_child=False, chunk_size=200)
    chunks = chunk_document(text, [], cs, DOC_ID)
    assert [c.clause for c in chunks] == [
        "第一章 总则 > 第一条 定义 – 第二条 范围",
        "第二章 费用 > 第三条 价款",
    ]
    whole = text.replace("见附件一", "术语如下。").replace("见附件二", "适用范围。")
    assert [c.clause for c in chunk_document(whole, [], cs, DOC_ID)] == [
        "第一章 总则 > 第一条 定义",
        "第一章 总则 > 第二条 范围",
        "第二章 费用 > 第三条 价款",
    ]
    assert "第二条 范围" in chunks[0].text
    assert "第二章" not in chunks[0].text


def test_long_clause_is_split_inside_with_overlap() -> None:
    body = "".join(f"第{i}句话说明了双方的权利和义务。" for i in range(60))
    text = f"第一条 权利义务\n{body}\n第二条 其他\n其他事项。"
    cs = ChunkingSettings(parent_child=False, chunk_size=200, chunk_overlap=40)
    chunks = chunk_document(text, [], cs, DOC_ID)
    first = [c for c in chunks if c.clause == "第一条 权利义务"]
    assert len(first) > 3
    for a, b in itertools.pairwise(first):
        assert b.start < a.end, "consecutive pieces overlap"
        assert a.text.endswith("。"), "pieces end at a sentence separator when one is in reach"
    assert chunks[-1].clause == "第二条 其他"


# ------------------------------------------------------------------------------------------
# Clause headings
# ------------------------------------------------------------------------------------------


def _paths(text: str) -> list[str]:
    return [b.path for b in clause_blocks(text, []) if b.path]


def test_article_section_hierarchy() -> None:
    text = (
        "ARTICLE 7 Termination\n"
        "Section 7.1 Termination for Convenience. Either party may terminate.\n"
        "Section 7.2 Termination for Cause. Upon material breach.\n"
        "(a) this is a list item, not a clause\n"
        "7.2.1 Cure Period. Thirty days.\n"
        "ARTICLE VIII\n\nGOVERNING LAW\n"
        "Section 8 Law. New York.\n"
    )
    assert _paths(text) == [
        "ARTICLE 7 Termination",
        "ARTICLE 7 Termination > Section 7.1 Termination for Convenience",
        "ARTICLE 7 Termination > Section 7.2 Termination for Cause",
        "ARTICLE 7 Termination > Section 7.2 Termination for Cause > 7.2.1 Cure Period",
        "ARTICLE VIII GOVERNING LAW",
        "ARTICLE VIII GOVERNING LAW > Section 8 Law",
    ]


def test_chinese_hierarchy() -> None:
    text = "第五章 违约责任\n第一节 一般规定\n第十二条 违约金\n违约金为10%。\n第13条 赔偿\n一、直接损失\n第六章 其他\n"
    assert _paths(text) == [
        "第五章 违约责任",
        "第五章 违约责任 > 第一节 一般规定",
        "第五章 违约责任 > 第一节 一般规定 > 第十二条 违约金",
        "第五章 违约责任 > 第一节 一般规定 > 第13条 赔偿",
        "第五章 违约责任 > 第一节 一般规定 > 第13条 赔偿 > 一、 直接损失",
        "第六章 其他",
    ]


def test_numbered_hierarchy_and_labels() -> None:
    text = (
        "7. Termination\n7.2 Termination for Cause. Either party may...\n7.2.1 Notice: in writing\n8. Law\n"
    )
    assert _paths(text) == [
        "7. Termination",
        "7. Termination > 7.2 Termination for Cause",
        "7. Termination > 7.2 Termination for Cause > 7.2.1 Notice",
        "8. Law",
    ]


@pytest.mark.parametrize(
    "line",
    [
        "(a) a list item",
        "2019. The year",
        "1.5 million dollars were paid",
        "第三条规定的义务",  # a reference, not a heading (no space after 条)
        "12 months after signing",
        "Sections 7 and 8 apply",
    ],
)
def test_not_clause_headings(line: str) -> None:
    assert find_headings(f"Intro.\n{line}\n") == []


def test_wrapped_reference_is_not_a_heading() -> None:
    text = "The Term shall expire on December 31, 2023, subject to early termination under\nSection 19. Flotek may extend.\n"
    assert find_headings(text) == []
    assert len(find_headings("Short heading line\nSection 19 Termination\n")) == 1


def test_clause_blocks_tile_the_text() -> None:
    text = "Preamble.\n\nSection 1 A\nbody\nSection 2 B\nbody\n"
    blocks = clause_blocks(text, [])
    assert blocks[0].start == 0 and blocks[-1].end == len(text)
    assert all(a.end == b.start for a, b in itertools.pairwise(blocks))
    assert [b.path for b in blocks] == ["", "Section 1 A", "Section 2 B"]


def test_anchor_spans_are_boundaries_and_prefix_paths() -> None:
    text = "Intro\n\nTermination\nEither party.\n7.2 For Cause. Breach.\n\nLaw\nNew York."
    spans = [
        PageSpan(0, 5, anchor=""),
        PageSpan(7, 55, anchor="7 Termination"),
        PageSpan(57, len(text), anchor="8 Law"),
    ]
    assert text[7:18] == "Termination" and text[57:60] == "Law"
    assert _paths_with(text, spans) == ["7 Termination", "7 Termination > 7.2 For Cause", "8 Law"]


def _paths_with(text: str, spans: list[PageSpan]) -> list[str]:
    return [b.path for b in clause_blocks(text, spans) if b.path]


# ------------------------------------------------------------------------------------------
# embed_text
# ------------------------------------------------------------------------------------------


def test_embed_text_header_and_switch() -> None:
    chunk = Chunk(id="x", doc_id="d", text="违约金为10%。", start=0, end=9, clause="第六条 违约金")
    on = embed_text(chunk, "房屋租赁合同", ChunkingSettings())
    assert on == "房屋租赁合同 | 第六条 违约金\n违约金为10%。"
    assert embed_text(chunk, "房屋租赁合同", ChunkingSettings(embed_header=False)) == chunk.text
    bare = Chunk(id="x", doc_id="d", text="t", start=0, end=1)
    assert embed_text(bare, "", ChunkingSettings()) == "t"


# ------------------------------------------------------------------------------------------
# Splitter properties
# ------------------------------------------------------------------------------------------

ALPHABET = st.sampled_from(
    [
        "a",
        "b",
        "Z",
        "合",
        "同",
        " ",
        "  ",
        "\n",
        "\n\n",
        "\r\n",
        "。",
        "；",
        "，",
        ". ",
        "e\u0301",
        "👍🏽",
        "\t",
        "1",
    ]
)


def _check_pieces(text: str, pieces: list[tuple[int, int]], lo: int, hi: int, size: int) -> None:
    starts = [s for s, _ in pieces]
    assert starts == sorted(set(starts)), "pieces advance"
    covered = bytearray(len(text))
    for start, end in pieces:
        assert lo <= start < end <= hi
        assert end - start <= size
        assert _trimmed(text, start, end)
        assert is_safe_boundary(text, start) and is_safe_boundary(text, end)
        covered[start:end] = b"\x01" * (end - start)
    assert all(covered[i] or text[i].isspace() for i in range(lo, hi))


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    parts=st.lists(ALPHABET, min_size=0, max_size=400),
    size=st.integers(min_value=8, max_value=120),
    overlap_share=st.floats(min_value=0.0, max_value=1.0),
    cut=st.tuples(st.integers(0, 50), st.integers(0, 50)),
)
def test_split_range_properties(
    parts: list[str], size: int, overlap_share: float, cut: tuple[int, int]
) -> None:
    text = "".join(parts)
    lo = min(cut[0], len(text))
    hi = max(lo, len(text) - cut[1])
    while not is_safe_boundary(text, lo):
        lo -= 1
    while not is_safe_boundary(text, hi):
        hi += 1
    pieces = split_range(text, lo, hi, size, int(size * overlap_share))
    _check_pieces(text, pieces, lo, hi, size)


HEADINGS = st.sampled_from(
    [
        "第一章 总则",
        "第二条 租金",
        "第十条 违约",
        "Section 7 Term",
        "Section 7.2 Cause",
        "ARTICLE V",
        "3. Fees",
        "1.1 Scope",
    ]
)
SENTENCES = st.sampled_from(
    [
        "租金每月人民币5000元。",
        "Either party may terminate. ",
        "违约金为合同总额的10%，",
        "(a) item\n",
        "\r\n",
        "\n\n",
        " ",
    ]
)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    lines=st.lists(st.tuples(st.booleans(), HEADINGS, st.lists(SENTENCES, max_size=30)), max_size=25),
    parent_child=st.booleans(),
    clause_aware=st.booleans(),
    child_size=st.integers(min_value=50, max_value=200),
)
def test_chunk_document_properties(
    lines: list[tuple[bool, str, list[str]]], parent_child: bool, clause_aware: bool, child_size: int
) -> None:
    text = "".join((f"{h}\n" if use else "") + "".join(body) for use, h, body in lines)
    cs = ChunkingSettings(
        parent_child=parent_child,
        clause_aware=clause_aware,
        chunk_size=child_size,
        chunk_overlap=child_size // 4,
        child_size=child_size,
        child_overlap=child_size // 5,
        parent_size=child_size * 3,
        parent_overlap=child_size // 2,
    )
    _check_invariants(text, chunk_document(text, [PageSpan(0, len(text), page=1)], cs, DOC_ID), cs)


def test_crlf_and_combining_marks_are_never_split() -> None:
    text = ("ab\r\n" * 40) + ("e\u0301" * 80)
    for size in range(8, 30):
        for start, end in split_range(text, 0, len(text), size, size // 3):
            assert text[end - 1 : end + 1] != "\r\n"
            assert end == len(text) or text[end] != "\u0301"
            assert text[start] != "\u0301"


@pytest.mark.parametrize("tail", ["\r\n", "e\u0301", "👍🏽", "a\u200db"])
def test_hard_cut_backs_off_from_joined_characters(tail: str) -> None:
    size = 10
    text = "x" * (size - 1) + tail + "y" * 20  # no separator in the first window: a hard cut
    assert find_cut(text, 0, len(text), size) == size - 1


def test_cut_prefers_the_highest_priority_separator_in_the_back_half() -> None:
    text = "aaaa. bbbb\ncccc，dddd eeee" + "f" * 40
    # "\n" outranks "，" and " " when it leaves a piece of at least MIN_FILL of the size
    assert find_cut(text, 0, len(text), 20) == text.index("\n") + 1
    # a separator too close to the start is not used (no crumbs)
    assert find_cut("a\n" + "b" * 30, 0, 32, 20) == 20


def test_overlap_start_snaps_forward_to_a_separator() -> None:
    text = "one two three four five six seven eight nine ten"
    cut = len(text)
    start = next_start(text, 0, cut, 12)
    assert cut - 12 <= start < cut
    assert text[start - 1] == " "
    assert next_start(text, 0, cut, 0) == cut


def test_tiny_clauses_of_different_parents_stay_apart() -> None:
    text = "Section 1 Scope\nShort.\n1.1 Parts\nShort too.\n1.2 Tools\nAlso short.\nSection 2 Price\nTen dollars.\n"
    chunks = chunk_document(text, [], ChunkingSettings(parent_child=False, chunk_size=400), DOC_ID)
    assert [c.clause for c in chunks] == [
        "Section 1 Scope",
        "Section 1 Scope > 1.1 Parts – 1.2 Tools",  # 1.1 and 1.2 share a parent: merged, as a range
        "Section 2 Price",
    ]
    assert "1.2 Tools" in chunks[1].text


def test_whitespace_runs_longer_than_the_size_lose_no_text() -> None:
    text = "a" + " " * 50 + "bcdef" + "\n" * 30 + "g"
    pieces = split_range(text, 0, len(text), 10, 4)
    assert [text[s:e] for s, e in pieces] == ["a", "bcdef", "g"]


def test_a_clause_running_over_two_pages_records_both(tmp_path: Path) -> None:
    path = make_docs.write_zh_two_page_clause_pdf(tmp_path)
    ex = extract(path.read_bytes(), path.name, IngestSettings())
    chunks = chunk_document(ex.text, ex.spans, ChunkingSettings(), DOC_ID)
    deposit = next(c for c in chunks if c.kind == "child" and "第三条" in c.text)
    assert (deposit.page, deposit.page_end) == (1, 2)
    assert make_docs.TWO_PAGE_RETURN in deposit.text
    one_page = [c for c in chunks if c.kind == "child" and "第五条" in c.text]
    assert one_page and all(c.page == c.page_end == 2 for c in one_page)
    for c in chunks:  # every range names the pages of the chunk's first and last words
        words = [
            s.page
            for s in ex.spans
            if s.start < c.end
            and c.start < s.end
            and ex.text[max(s.start, c.start) : min(s.end, c.end)].strip()
        ]
        assert (c.page, c.page_end) == (min(words), max(words)), c.id


def test_a_preamble_before_the_first_heading_is_not_cited_as_that_clause() -> None:
    """The preamble naming the licensee was cited as "1. DEFINITIONS > 1.1 …"."""
    text = (
        "SOFTWARE LICENSE AGREEMENT\n\nThis Agreement is entered into by and between A Inc. and B LLC.\n\n"
        '1. DEFINITIONS\n1.1 "Software" means the program.\n1.2 "Confidential Information" means secrets.\n'
    )
    label = (
        '1. DEFINITIONS > 1.1 "Software" means the program. – 1.2 "Confidential Information" means secrets.'
    )
    assert clause_within(text, label, text.find("This Agreement")) == ""
    assert clause_within(text, label, text.find("1.2")).startswith("1. DEFINITIONS > 1.2")
    # a passage that opens inside the previous clause keeps that clause for its opening text
    assert clause_within(text, "9. NOTICES – 1.2 x", text.find("This Agreement")) == "9. NOTICES – 1.2 x"


def test_one_line_numbered_clauses_are_clauses_not_bare_headings() -> None:
    """ "4.1 …支付预付款。" has no body below its heading line, yet it is a whole clause: read as a bare
    heading, 4.1–4.3 and the next article joined one passage labelled with that article (a construction
    contract's delay damages were judged together with its payment terms)."""
    zh = (
        "第四条 工程款支付\n4.1 合同签订后十四日内，发包人支付签约合同价10%的预付款。\n"
        "4.2 工程进度款按月支付，发包人应在收到进度报告后二十八日内支付。\n"
        "4.3 竣工验收合格后，发包人支付至结算价款的97%。\n\n"
        "第五条 工期延误\n因承包人原因导致工期延误的，每延误一日，承包人应支付逾期竣工违约金。\n"
    )
    chunks = chunk_document(zh, [], ChunkingSettings(parent_child=False), DOC_ID)
    assert [c.clause.rsplit(" > ", 1)[-1] for c in chunks] == [
        "4.1 合同签订后十四日内",
        "4.2 工程进度款按月支付",
        "4.3 竣工验收合格后",
        "第五条 工期延误",
    ]
    assert "4.3" not in chunks[-1].text
    en = (
        "3. FEES\n3.1 Customer shall pay an annual subscription fee of USD 96,000, invoiced annually.\n"
        "3.2 Invoices are due within thirty (30) days of the invoice date.\n"
        "4. SERVICE LEVELS\nProvider shall make the platform available 99.9% of the time in each month.\n"
    )
    chunks = chunk_document(en, [], ChunkingSettings(parent_child=False), DOC_ID)
    assert chunks[-1].clause == "4. SERVICE LEVELS"
    assert "3.2 Invoices" not in chunks[-1].text
    # a title line ending in a full stop is still a bare heading and joins its clause
    titled = "5. Term and Termination.\n5.1 Either party may terminate this Agreement on notice.\n"
    assert [c.text for c in chunk_document(titled, [], ChunkingSettings(parent_child=False), DOC_ID)] == [
        titled.strip()
    ]

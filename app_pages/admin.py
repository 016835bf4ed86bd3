"""Admin: every setting of ``rag_core.settings.Settings``, generated from the model's field metadata
(unit, range, default, description), validated by pydantic, saved in the store; model endpoints
with a connection test; and the threshold lab (judge once, move thresholds, see labels change)."""

from __future__ import annotations

from functools import partial
from typing import Any, Literal, get_args, get_origin

import annotated_types as at
import streamlit as st
from pydantic import ValidationError
from pydantic.fields import FieldInfo

from rag_core.lab import judge_question, relabel
from rag_core.llm.factory import model_for_role, unavailable_error
from rag_core.settings import ModelSettings, Settings, VerdictSettings, mask_secret
from storage.rows import Message
from ui import state
from ui.components import label_badges, label_counts, safe, show_error, verdict_table
from ui.errors import error_text, validation_text
from ui.i18n import field_help, field_label, option_label, t, unit_name

store = state.store()
saved = state.settings()
ss = st.session_state

TABS: list[tuple[str, list[str]]] = [
    ("retrieval", ["retrieval"]),
    ("verdict", ["verdict"]),
    ("generation", ["generation"]),
    ("reflection", ["reflection"]),
    ("models", ["models"]),
    ("ingest", ["ingest", "chunking", "embedding"]),
]
GROUPS: list[str] = list(Settings.model_fields)
THRESHOLDS = ("t_injection", "t_conflict", "t_relevance", "t_evidence")
LONG_TEXT = {"empty_answer_zh", "empty_answer_en"}


def wkey(group: str, name: str) -> str:
    return f"set_{group}_{name}"


def group_fields(group: str) -> dict[str, FieldInfo]:
    model = Settings.model_fields[group].annotation
    return dict(model.model_fields)  # type: ignore[union-attr]


def bounds(info: FieldInfo) -> tuple[Any, Any]:
    lo = hi = None
    for m in info.metadata:
        if isinstance(m, at.Ge | at.Gt):
            lo = m.ge if isinstance(m, at.Ge) else m.gt
        if isinstance(m, at.Le | at.Lt):
            hi = m.le if isinstance(m, at.Le) else m.lt
    return lo, hi


def seed(values: Settings, force: bool = False) -> None:
    """Put ``values`` into the widgets' state (on first show, after save/reset/discard)."""
    data = values.model_dump()
    for group in GROUPS:
        for name in group_fields(group):
            key = wkey(group, name)
            if force or key not in ss:
                ss[key] = data[group][name]


def collect() -> dict[str, dict[str, Any]]:
    return {g: {n: ss.get(wkey(g, n)) for n in group_fields(g)} for g in GROUPS}


def _save() -> None:
    try:
        new = Settings.model_validate(collect())
    except ValidationError as err:
        # Kept as pydantic reported them and worded when shown (in the language then in force).
        ss["admin_errors"] = [
            {
                "loc": e["loc"],
                "type": e["type"],
                "msg": e["msg"],
                "ctx": e.get("ctx"),
                "input": e.get("input"),
            }
            for e in err.errors()
        ]
        return
    store.prefs.save_settings(new)
    _lab_follow(new)
    ss["admin_errors"] = []
    ss["admin_flash"] = t("settings_saved")


def _lab_follow(values: Settings) -> None:
    """The threshold lab's sliders show ``values`` (after a save, a reset or a discard)."""
    for k in THRESHOLDS:
        ss[f"lab_{k}"] = float(getattr(values.verdict, k))


def _reset() -> None:
    store.prefs.save_settings(Settings())
    seed(Settings(), force=True)
    _lab_follow(Settings())
    ss["admin_errors"] = []
    ss["admin_flash"] = t("settings_reset_done")


def _discard() -> None:
    current = store.prefs.load_settings()
    seed(current, force=True)
    _lab_follow(current)
    ss["admin_errors"] = []


def field_widget(group: str, name: str, info: FieldInfo) -> None:
    ann = info.annotation
    extra = info.json_schema_extra if isinstance(info.json_schema_extra, dict) else {}
    unit = str(extra.get("unit", ""))
    lo, hi = bounds(info)
    rng = f"{lo if lo is not None else '−∞'} … {hi if hi is not None else '∞'}"
    default = info.default
    help_text = f"{field_help(group, name, info.description or '')}  \n{t('field_unit')}: {unit_name(unit)}"
    if lo is not None or hi is not None:
        help_text += f" · {t('field_range')}: {rng}"
    help_text += f" · {t('field_default')}: {default!r}  \n`{group}.{name}`"
    label = field_label(group, name, unit)
    key = wkey(group, name)
    if ann is bool:
        st.toggle(label, key=key, help=help_text)
    elif get_origin(ann) is Literal:
        st.selectbox(
            label,
            list(get_args(ann)),
            key=key,
            help=help_text,
            format_func=partial(option_label, name),
        )
    elif ann is int:
        st.number_input(label, step=1, format="%d", key=key, help=help_text)
    elif ann is float:
        st.number_input(
            label, step=0.01 if (hi is not None and hi <= 1) else 1.0, format="%g", key=key, help=help_text
        )
    elif name == "api_key":
        st.text_input(label, type="password", key=key, help=help_text)
        if saved.models.api_key:
            st.caption(t("api_key_saved", masked=mask_secret(saved.models.api_key)))
    elif name in LONG_TEXT:
        st.text_area(label, key=key, help=help_text, height=68)
    else:
        st.text_input(label, key=key, help=help_text)


def test_connection() -> None:
    try:
        models = ModelSettings.model_validate(collect()["models"])
    except ValidationError as err:
        st.error(t("conn_invalid", errors=validation_text(err.errors()[0])))
        return
    missing = unavailable_error(saved.model_copy(update={"models": models}), "answer")
    if missing:
        st.error(t("conn_failed", message=error_text(missing)), icon=":material/block:")
        return
    if models.provider == "openai":
        from rag_core.llm.openai_client import OpenAIChatModel

        try:
            with st.spinner(t("conn_testing")):
                msg = OpenAIChatModel(
                    models.base_url, models.api_key, model_for_role(models, "answer"), models, "answer"
                ).test_connection()
            st.success(safe(msg, False), icon=":material/check_circle:")
        except Exception as err:
            show_error(err)
    else:
        st.success(
            t("conn_local_ok", model=models.local_model, threads=models.local_threads),
            icon=":material/check_circle:",
        )


# ---------------------------------------------------------------- threshold lab
def _lab_seed() -> None:
    for k in THRESHOLDS:
        ss.setdefault(f"lab_{k}", float(getattr(saved.verdict, k)))


def _lab_save() -> None:
    current = store.prefs.load_settings()
    verdict = current.verdict.model_copy(update={k: float(ss[f"lab_{k}"]) for k in THRESHOLDS})
    store.prefs.save_settings(
        current.model_copy(update={"verdict": VerdictSettings.model_validate(verdict.model_dump())})
    )
    for k in THRESHOLDS:
        ss[wkey("verdict", k)] = float(ss[f"lab_{k}"])
    ss["lab_flash"] = t("lab_saved")


def threshold_lab() -> None:
    st.caption(t("lab_intro"))
    source = st.segmented_control(
        t("lab_source"),
        ["question", "turn"],
        format_func=lambda s: t("lab_source_" + s),
        default="question",
        key="lab_source",
    )
    if source == "turn":
        convs = store.conversations.all()
        turns: list[tuple[str, Message]] = []
        for c in convs[:30]:
            q = ""
            for m in store.conversations.messages(c.id):
                if m.role == "user":
                    q = m.content
                elif m.verdicts:
                    turns.append((q, m))
        if not turns:
            st.info(t("lab_no_turns"))
        else:
            pick = st.selectbox(
                t("lab_turn"), range(len(turns)), format_func=lambda i: turns[i][0][:80], key="lab_turn"
            )
            if st.button(t("lab_load"), key="lab_load"):
                ss["lab_rows"] = turns[pick][1].verdicts
                ss["lab_question"] = turns[pick][0]
    else:
        kbs = store.kbs.all()
        names = {kb.id: kb.name for kb in kbs}
        with st.form("lab_form", border=False):
            chosen = st.multiselect(
                t("chat_kbs"),
                list(names),
                default=list(names)[:1],
                format_func=lambda k: names[k],
                key="lab_kbs",
            )
            q = st.text_input(t("lab_question"), key="lab_q")
            run = st.form_submit_button(t("lab_run"), type="primary")
        if run:
            if not q.strip() or not chosen:
                st.error(t("lab_need_question"))
            else:
                try:
                    with st.spinner(t("lab_running")):
                        ss["lab_rows"] = judge_question(
                            store, saved, [kb for kb in kbs if kb.id in chosen], q
                        )
                    ss["lab_question"] = q
                except Exception as err:
                    show_error(err)
    rows = ss.get("lab_rows")
    if rows is None:
        return
    st.markdown(f"**{t('inspect_question')}** {safe(ss.get('lab_question', ''), False)}")
    if not rows:
        st.info(t("lab_no_candidates"))
        return
    _lab_seed()
    cols = st.columns(4)
    for col, k in zip(cols, THRESHOLDS, strict=True):
        col.slider(t("thr_" + k), 0.0, 1.0, step=0.01, key=f"lab_{k}", help=field_help("verdict", k, ""))
    st.caption(t("lab_release_hint"))
    vs = saved.verdict.model_copy(update={k: float(ss[f"lab_{k}"]) for k in THRESHOLDS})
    fresh = relabel(rows, vs)
    changed = sum(1 for r in fresh if r["label"] != r["old_label"])
    kept = sum(1 for r in fresh if r["keep"])
    st.markdown(
        t("lab_summary", n=len(fresh), kept=kept, changed=changed)
        + "  \n"
        + label_badges(label_counts(fresh))
    )
    verdict_table(fresh, key="lab_table", with_old=True)
    st.button(t("lab_save"), key="lab_save", type="primary", on_click=_lab_save, icon=":material/save:")
    if ss.get("lab_flash"):
        st.success(ss.pop("lab_flash"), icon=":material/check_circle:")


# ---------------------------------------------------------------- the page
st.title(t("admin_title"))
seed(saved)
c1, c2, c3 = st.columns(3)
c1.button(
    t("settings_save"),
    type="primary",
    on_click=_save,
    key="settings_save",
    icon=":material/save:",
    width="stretch",
)
c2.button(
    t("settings_discard"), on_click=_discard, key="settings_discard", icon=":material/undo:", width="stretch"
)
if c3.button(t("settings_reset"), key="settings_reset", icon=":material/restart_alt:", width="stretch"):
    ss["confirm_reset"] = True
if ss.get("confirm_reset"):
    st.warning(t("settings_reset_confirm"))
    r1, r2 = st.columns(2)
    if r1.button(t("settings_reset_ok"), key="settings_reset_ok", type="primary", on_click=_reset):
        ss["confirm_reset"] = False
        st.rerun()
    if r2.button(t("cancel"), key="settings_reset_cancel"):
        ss["confirm_reset"] = False
        st.rerun()
for e in ss.get("admin_errors", []):
    st.error(t("settings_invalid", error=validation_text(e)), icon=":material/block:")
if ss.get("admin_flash"):
    st.success(ss.pop("admin_flash"), icon=":material/check_circle:")
if collect() != saved.model_dump():
    st.caption(t("settings_unsaved"))

# The open tab is kept by index (the labels change with the language): a save, reset or message
# above the tabs reruns the page, and the lawyer stays where they were.
labels = [t("group_" + name) for name, _ in TABS] + [t("lab_title")]
if ss.get("admin_tab") not in labels:
    ss["admin_tab"] = labels[min(int(ss.get("admin_tab_i", 0)), len(labels) - 1)]


def _tab_chosen() -> None:
    ss["admin_tab_i"] = labels.index(ss["admin_tab"]) if ss.get("admin_tab") in labels else 0


tabs = st.tabs(labels, key="admin_tab", on_change=_tab_chosen)
for tab, (_name, groups) in zip(tabs, TABS, strict=False):
    with tab:
        for group in groups:
            if len(groups) > 1:
                st.markdown(f"##### {t('group_' + group)}")
            fields = group_fields(group)
            left, right = st.columns(2)
            for i, (name, info) in enumerate(fields.items()):
                with left if i % 2 == 0 else right:
                    field_widget(group, name, info)
            if group == "models":
                st.divider()
                if st.button(t("conn_test"), key="conn_test", icon=":material/lan:"):
                    test_connection()
with tabs[-1]:
    threshold_lab()

#!/usr/bin/env python
"""Try Lexgate in a real browser as a lawyer would, and print what the pages showed.

Starts ``streamlit run app.py`` (from this checkout) on a free 127.0.0.1 port over a
fresh data home in a temp dir, uploads a Chinese lease and an English software licence (.txt, both
written below) into one knowledge base on the Documents page, asks the questions given on the
command line or in a JSONL file on the Chat page, and for each answer prints the answer as
displayed, whether it was a refusal, the citations shown and, from the evidence panel, every
passage's label, kept/dropped and its four scores. A full-page screenshot ``chat_N.png`` is taken
after each answer.

    HF_HUB_OFFLINE=1 .venv/bin/python scripts/tryout_ui.py --no-llm \
        -q "月租金是多少？" -q "What is the annual license fee?"
    HF_HUB_OFFLINE=1 .venv/bin/python scripts/tryout_ui.py --questions qs.jsonl

``--doc FILE`` (repeatable) uploads one more file beside the two (a contract with a planted attack, say).

Questions: ``-q TEXT`` starts a new chat, ``-f TEXT`` asks a follow-up in the current chat; or a
JSONL file, one ``{"q": "...", "new_chat": true|false}`` per line (new_chat defaults to true for the
first question, false otherwise).

``--no-llm`` saves settings with no answer model before the app starts (``models.provider =
openai`` with an empty ``base_url``: ``rag_core.llm.factory.get_chat_model`` then returns None for
every role, and the pipeline answers with the quoted evidence only) and turns the warm-up off.
Without it the app's defaults are used (the packaged local Qwen2.5 1.5B GGUF, loaded in the
background at start).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

APP_ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(APP_ROOT))
from tests.e2e.appserver import CHROMIUM, CHROMIUM_ARGS, STEP_TIMEOUT_MS, app_server  # noqa: E402

APP_PYTHON = APP_ROOT / ".venv" / "bin" / "python"
OUT = Path(os.environ.get("LEXGATE_TRYOUT_OUT", "tryout-shots")).resolve()
KB_NAME = "合同库"

LEASE_NAME = "房屋租赁合同.txt"
LEASE = """房屋租赁合同

出租方（甲方）：北京华信置业有限公司
承租方（乙方）：李明

根据《中华人民共和国民法典》及有关法律法规的规定，甲乙双方在平等、自愿、协商一致的基础上，就乙方承租甲方房屋事宜，订立本合同。

第一条 房屋基本情况
甲方将其合法拥有的位于北京市朝阳区建国路88号3号楼1502室的房屋出租给乙方使用，建筑面积为89.5平方米，用途为居住。

第二条 租赁期限
租赁期限自2025年3月1日起至2027年2月28日止，共计二十四个月。租赁期满，乙方如需续租，应当提前三十日书面通知甲方，经甲方同意后重新签订租赁合同。

第三条 租金及支付方式
月租金为人民币6800元（大写：陆仟捌佰元整）。租金按季度支付，乙方应于每季度第一个月的5日前向甲方支付当季租金人民币20400元。甲方收到租金后应向乙方出具收据。

第四条 押金
乙方应于本合同签订之日向甲方支付押金人民币13600元（相当于两个月租金）。租赁期满或合同解除后，乙方结清房租、水电费等各项费用并按约定交还房屋的，甲方应于七日内将押金无息退还乙方。

第五条 维修责任
租赁期间，房屋及其附属设施的自然损坏由甲方负责维修，甲方应在接到乙方通知后三日内进行维修。因乙方使用不当造成房屋或设施损坏的，由乙方负责修复或赔偿。

第六条 转租
未经甲方书面同意，乙方不得将房屋全部或部分转租、转借给第三人。乙方擅自转租的，甲方有权解除本合同，并要求乙方赔偿由此造成的损失。

第七条 违约责任
乙方逾期支付租金的，每逾期一日，应按当季租金的千分之五向甲方支付违约金；逾期超过十五日的，甲方有权解除合同。甲方未按约定交付房屋的，应按月租金的百分之二十向乙方支付违约金。

第八条 争议解决
因本合同引起的或与本合同有关的任何争议，双方应友好协商解决；协商不成的，任何一方均可向房屋所在地人民法院起诉。

第九条 其他
本合同一式两份，甲乙双方各执一份，自双方签字盖章之日起生效。

甲方（盖章）：北京华信置业有限公司
乙方（签字）：李明
签订日期：2025年2月20日
"""

LICENCE_NAME = "software_license_agreement.txt"
LICENCE = """SOFTWARE LICENSE AGREEMENT

This Software License Agreement (the "Agreement") is entered into as of January 15, 2025 (the "Effective Date") by and between Northwind Software Inc., a Delaware corporation ("Licensor"), and Bluefield Analytics LLC, a New York limited liability company ("Licensee").

1. DEFINITIONS
1.1 "Software" means Licensor's DataBridge enterprise data integration software in object code form, including all updates and documentation provided by Licensor under this Agreement.
1.2 "Confidential Information" means any non-public business or technical information disclosed by one party to the other that is marked confidential or would reasonably be understood to be confidential.

2. LICENSE GRANT
2.1 Subject to the terms of this Agreement, Licensor grants to Licensee a non-exclusive, non-transferable, non-sublicensable license to install and use the Software for Licensee's internal business purposes during the Term.
2.2 Licensee shall not reverse engineer, decompile or disassemble the Software, except to the extent expressly permitted by applicable law.

3. FEES AND PAYMENT
3.1 Licensee shall pay Licensor an annual license fee of USD 84,000 (eighty-four thousand US dollars).
3.2 The annual license fee is payable in advance within thirty (30) days after the Effective Date and each anniversary thereof. Late payments bear interest at one percent (1%) per month.

4. TERM AND TERMINATION
4.1 This Agreement commences on the Effective Date and continues for an initial term of three (3) years (the "Term").
4.2 Either party may terminate this Agreement upon thirty (30) days' written notice if the other party materially breaches this Agreement and fails to cure the breach within that period.

5. CONFIDENTIALITY
5.1 Each party shall hold the other party's Confidential Information in strict confidence and shall not disclose it to any third party except as required to perform this Agreement.
5.2 The obligations of this Section 5 continue during the Term and for five (5) years after the termination or expiration of this Agreement.

6. WARRANTY
6.1 Licensor warrants that the Software will perform substantially in accordance with its documentation for ninety (90) days after delivery.

7. LIMITATION OF LIABILITY
7.1 In no event shall either party be liable for any indirect, incidental, special or consequential damages.
7.2 Each party's total liability arising out of or relating to this Agreement shall not exceed the fees paid by Licensee under this Agreement in the twelve (12) months preceding the event giving rise to the claim.

8. GOVERNING LAW
8.1 This Agreement shall be governed by and construed in accordance with the laws of the State of New York, without regard to its conflict of laws principles.

9. NOTICES
9.1 All notices under this Agreement shall be in writing and sent to Licensor at legal@northwind-software.com or through https://portal.northwind-software.com/notices, and to Licensee at its address set out above.

10. GENERAL
10.1 This Agreement constitutes the entire agreement between the parties and supersedes all prior agreements relating to its subject matter.

IN WITNESS WHEREOF, the parties have executed this Agreement as of the Effective Date.
Northwind Software Inc.                Bluefield Analytics LLC
"""


# ---------------------------------------------------------------- the app server
def save_no_llm_settings(home: Path) -> None:
    """Settings with no answer model, saved in the data home before the app starts (as the e2e tests
    save theirs): run in the app's venv so the stored JSON is what the app validates."""
    code = (
        "import sys; from pathlib import Path; sys.path.insert(0, sys.argv[2]);"
        "from rag_core.settings import Settings; from storage.store import open_store;"
        "s = Settings(); s.models.provider = 'openai'; s.models.base_url = ''; s.models.answer_model = '';"
        "open_store(Path(sys.argv[1])).prefs.save_settings(s)"
    )
    env = {**os.environ, "PYTHONDONTWRITEBYTECODE": "1", "HF_HUB_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1"}
    subprocess.run(
        [str(APP_PYTHON), "-c", code, str(home), str(APP_ROOT)], check=True, env=env, cwd=str(home)
    )


# ---------------------------------------------------------------- page helpers (as tests/e2e)
def goto(pg: Any, url: str) -> None:
    pg.goto(url)
    pg.wait_for_selector("[data-testid=stApp]")
    pg.wait_for_selector("[data-testid=stSidebarNav]")
    pg.wait_for_timeout(800)
    idle(pg)


def idle(pg: Any, timeout_ms: int = STEP_TIMEOUT_MS) -> None:
    """Wait until the script run has finished (no 'running' indicator)."""
    pg.wait_for_timeout(300)
    pg.wait_for_function(
        "() => !document.querySelector('[data-testid=stStatusWidget]')"
        " && !document.querySelector('.stMain [data-testid=stSkeleton]')",
        timeout=timeout_ms,
    )
    pg.wait_for_timeout(300)


PROBLEM_JS = r"""
() => {
  const out = [];
  const main = document.querySelector('.stMain') || document.body;
  const text = main.innerText;
  if (/Traceback \(most recent call last\)/.test(text)) out.push('a Python traceback is shown');
  for (const e of document.querySelectorAll('[data-testid=stException]'))
    out.push('exception box: ' + e.innerText.slice(0, 300).replace(/\s+/g, ' '));
  const raw = text.match(/<\/?(div|span|a|img|script|p|br|b|strong|mark|table)\b[^>]*>|&lt;|&gt;|&amp;|:(blue|green|red|orange|gray)-(badge|background)\[|\*\*[^*\n]+\*\*/g);
  if (raw) out.push('raw markup in the page text: ' + [...new Set(raw)].slice(0, 8).join(' | '));
  for (const a of main.querySelectorAll('a[href]')) {
    const href = a.getAttribute('href');
    if (a.closest('[data-testid=stSidebarNav]')) continue;
    if (href.startsWith('#') || href.startsWith('/') || href.startsWith(location.origin)) continue;
    if (href.startsWith('blob:') || href.startsWith('data:')) continue;
    out.push('link to ' + href + ' ("' + a.innerText.slice(0, 60) + '")');
  }
  for (const img of main.querySelectorAll('img[src]')) {
    const src = img.getAttribute('src');
    if (!(src.startsWith('/') || src.startsWith(location.origin) || src.startsWith('data:') || src.startsWith('blob:')))
      out.push('remote image ' + src);
  }
  return out;
}
"""


def full_shot(pg: Any, path: Path) -> None:
    """A screenshot of the whole chat: Streamlit scrolls inside its main container, so a full-page
    screenshot alone shows one viewport; the viewport is made as tall as the content first."""
    size = pg.viewport_size or {"width": 1440, "height": 1500}
    height = int(pg.evaluate(
        "() => Math.max(...[...document.querySelectorAll('.stMain, [data-testid=stSidebarContent]')]"
        ".map(e => e.scrollHeight), 0)"
    ))  # fmt: skip
    try:
        if height > size["height"]:
            pg.set_viewport_size({"width": size["width"], "height": min(height + 160, 12_000)})
            pg.wait_for_timeout(1200)
        pg.screenshot(path=str(path), full_page=True)
    finally:
        pg.set_viewport_size(size)
        pg.wait_for_timeout(300)


def problems(pg: Any) -> list[str]:
    return list(pg.evaluate(PROBLEM_JS))


# ---------------------------------------------------------------- documents
def upload(pg: Any, url: str, docs_dir: Path, extra: list[Path]) -> list[str]:
    lines: list[str] = []
    goto(pg, f"{url}/documents")
    pg.get_by_label("知识库名称").fill(KB_NAME)
    pg.get_by_role("button", name="创建").click()
    pg.get_by_text(f"已创建知识库「{KB_NAME}」").wait_for()
    idle(pg)
    files = []
    for name, text in ((LEASE_NAME, LEASE), (LICENCE_NAME, LICENCE)):
        path = docs_dir / name
        path.write_text(text, encoding="utf-8")
        files.append(str(path))
    files += [str(p) for p in extra]
    pg.locator("[data-testid=stFileUploaderDropzoneInput]").set_input_files(files)
    pg.get_by_role("button", name=f"导入 {len(files)} 个文件").click()
    # Embedding on 2 busy cores can take a while: wait for both per-file results.
    for name in (LEASE_NAME, LICENCE_NAME, *(p.name for p in extra)):
        pg.get_by_text(re.compile(re.escape(name) + "：(已导入|未导入|重复文件)")).first.wait_for(
            timeout=600_000
        )
    idle(pg, 600_000)
    for alert in icon_free_texts(pg.locator(".stMain"), "[data-testid=stAlert]"):
        lines.append("  " + alert.replace("\n", " "))
    full_shot(pg, OUT / "documents.png")
    return lines


# ---------------------------------------------------------------- chat
ASSISTANT = "[data-testid=stChatMessage]:has([data-testid=stChatMessageAvatarAssistant])"
LIVE_TEXTS = ("正在检索…", "正在逐段判断…", "判断完成，正在生成回答…", "Searching…", "judging each passage…",
              "writing the answer…")  # fmt: skip


def n_assistant(pg: Any) -> int:
    return int(pg.locator(ASSISTANT).count())


def new_chat(pg: Any, url: str) -> None:
    if "/chat" not in pg.url:
        goto(pg, f"{url}/chat")
    pg.locator("[data-testid=stSidebar]").get_by_role("button", name="新对话").click()
    idle(pg)
    # the previous chat's answer can still be drawn for a moment: counting it as "before" made the
    # next ask() wait for a second answer that never comes
    pg.locator(ASSISTANT).first.wait_for(state="detached", timeout=30_000)


def ask(pg: Any, question: str, timeout_s: float) -> float:
    """Type the question, send it, wait until the stored answer is drawn; the seconds it took."""
    before = n_assistant(pg)
    box = pg.get_by_placeholder(re.compile("就合同提问|Ask about your contracts"))
    box.fill(question)
    t0 = time.monotonic()
    pg.keyboard.press("Enter")
    # The run starts (the question shows), then finishes with st.rerun() drawing the stored turn.
    pg.locator("[data-testid=stChatMessage]").filter(has_text=question).last.wait_for(timeout=30_000)
    deadline = t0 + timeout_s
    while time.monotonic() < deadline:
        pg.wait_for_timeout(1000)
        running = pg.locator("[data-testid=stStatusWidget]").count() > 0
        if running:
            continue
        body = pg.locator(".stMain").inner_text()
        if any(s in body for s in LIVE_TEXTS) or "▌" in body:
            continue
        if n_assistant(pg) > before:
            pg.wait_for_timeout(800)  # let the rerun settle
            if pg.locator("[data-testid=stStatusWidget], .stMain [data-testid=stSkeleton]").count() == 0:
                idle(pg)
                return time.monotonic() - t0
    raise TimeoutError(f"no finished answer after {timeout_s:.0f} s for {question!r}")


def icon_free_texts(loc: Any, selector: str) -> list[str]:
    """The texts of ``selector`` under ``loc`` without Material icon names ("check_circle", ...)."""
    js = "(root, sel) => {" + TXT_JS + " return [...root.querySelectorAll(sel)].map(txt).filter(Boolean); }"
    return [str(x) for x in loc.evaluate(js, selector)]


def _texts(loc: Any) -> list[str]:
    return [x.strip() for x in loc.all_inner_texts() if x.strip()]


TXT_JS = r"""
const txt = (e) => {
  let t = e.innerText;
  for (const i of e.querySelectorAll('[data-testid=stIconMaterial]')) {
    const it = i.innerText;
    if (it) t = t.replace(it, '');
  }
  // Material icons drawn from the icon font leave their ligature name on a line of its own.
  t = t.trim().replace(/^[a-z_]{3,}(\s*\n|\s{2,})/, '');
  return t.trim();
};
"""

READ_ANSWER_JS = (
    r"""
(col) => {
"""
    + TXT_JS
    + r"""
  const isQuotedCaption = (e) => /^(合同原文摘录|Quoted from the contract)/.test(e.innerText.trim());
  const qcap = [...col.querySelectorAll('[data-testid=stCaptionContainer]')].find(isQuotedCaption);
  const qbox = qcap ? qcap.closest('[data-testid=stVerticalBlock]') : null;
  const answer = [], captions = [], alerts = [];
  for (const md of col.querySelectorAll('[data-testid=stMarkdown]')) {
    if (md.closest('[data-testid=stExpander]') || md.closest('[data-testid=stAlert]')) continue;
    if (md.closest('[data-testid=stCaptionContainer]') || md.querySelector('[data-testid=stCaptionContainer]')) continue;
    if (qbox && qbox.contains(md)) continue;
    const t = txt(md);
    if (t) answer.push(t);
  }
  for (const c of col.querySelectorAll('[data-testid=stCaptionContainer]')) {
    if (c.closest('[data-testid=stExpander]') || (qbox && qbox.contains(c))) continue;
    if (txt(c)) captions.push(txt(c));
  }
  for (const a of col.querySelectorAll('[data-testid=stAlert]')) alerts.push(txt(a));
  let quoted = '';
  if (qbox) {
    const parts = [];
    for (const md of qbox.querySelectorAll('[data-testid=stMarkdown]'))
      if (!md.closest('[data-testid=stExpander]')) parts.push(txt(md));
    quoted = parts.join('\n');
  }
  return {answer: answer.join('\n'), captions, alerts, quoted, whole: txt(col)};
}
"""
)


def read_answer(msg: Any) -> dict[str, Any]:
    """What the last assistant message shows: quoted box, answer text, refusal note, usage line, citations."""
    cols = msg.locator("[data-testid=stColumn]")
    has_panel = msg.get_by_text(re.compile("^(证据面板|Evidence panel)$")).count() > 0
    col = cols.nth(1) if has_panel and cols.count() >= 2 else msg
    out = dict(col.evaluate(READ_ANSWER_JS))
    summaries = icon_free_texts(msg, "[data-testid=stExpander] summary")
    out["quote_cites"] = [s for s in summaries if re.match(r"^(引用|Citations) \[\d+\]", s)]
    out["citations"] = [s for s in summaries if re.match(r"^\[\d+\]", s)]
    out["has_panel"] = has_panel
    return out


def open_citation(pg: Any, msg: Any, summary: str) -> str:
    exp = (
        msg.locator("[data-testid=stExpander]")
        .filter(has=pg.locator("summary").filter(has_text=summary))
        .first
    )
    exp.locator("summary").first.click()
    pg.wait_for_timeout(700)
    idle(pg)
    details = exp.locator("[data-testid=stExpanderDetails]")
    return details.inner_text().strip() if details.count() else ""


def read_panel(pg: Any, max_passages: int) -> list[dict[str, Any]]:
    """Open each passage of the last answer's evidence panel in turn (its selectbox), read the detail."""
    out: list[dict[str, Any]] = []
    msg = pg.locator(ASSISTANT).last
    select = msg.locator("[data-testid=stSelectbox]").filter(
        has_text=re.compile("查看某段的评分与理由|Open a passage")
    )
    try:
        select.first.wait_for(timeout=10_000)
    except Exception:
        return out
    summary = msg.get_by_text(re.compile("^共判断 \\d+ 段候选|candidates judged")).first
    header = summary.inner_text().strip() if summary.count() else ""
    m = re.search(r"(\d+)", header)
    if m:
        n = int(m.group(1))
    else:  # the list is virtualised: count only what it draws
        select.first.click()
        pg.wait_for_timeout(400)
        n = pg.get_by_role("option").count()
        pg.keyboard.press("Escape")
        pg.wait_for_timeout(300)
    if header:
        out.append({"header": header})
    for i in range(min(n, max_passages)):
        tag = f"[{i + 1}] "
        try:
            msg = pg.locator(ASSISTANT).last
            select = (
                msg.locator("[data-testid=stSelectbox]")
                .filter(has_text=re.compile("查看某段的评分与理由|Open a passage"))
                .first
            )
            select.click()
            pg.wait_for_timeout(250)
            pg.keyboard.type(tag.strip())  # the option list is virtualised: filter it to this passage
            pg.wait_for_timeout(350)
            option = pg.get_by_role("option").filter(has_text=tag).first
            opt = option.inner_text(timeout=10_000).strip()
            option.click()
            idle(pg)
            msg = pg.locator(ASSISTANT).last
            panel = msg.locator("[data-testid=stColumn]").first
            bars = _texts(panel.locator("[data-testid=stProgress]"))
            kept_line = panel.locator("[data-testid=stMarkdown]").filter(
                has_text=re.compile(r"^\[\d+\] (保留|丢弃|Kept|Dropped)")
            )
            mds = _texts(panel.locator("[data-testid=stMarkdown]"))
            out.append({
                "option": opt,
                "kept_line": kept_line.first.inner_text().strip() if kept_line.count() else "",
                "scores": bars,
                "text": mds[-1] if mds else "",  # the passage text: the last block of the panel
            })  # fmt: skip
        except Exception as err:
            pg.keyboard.press("Escape")
            out.append({"option": f"{tag}(could not open: {str(err).splitlines()[0][:120]})",
                        "kept_line": "", "scores": [], "text": ""})  # fmt: skip
    return out


REFUSAL_RE = re.compile(
    r"未作回答|无法回答|没有.{0,12}(条款|约定|证据|相关)|不包含|未找到|未约定|未检索到|"
    r"contain no|no .{0,30}clause|could not find|not (found|answer)|no passage qualified",
    re.IGNORECASE,
)


def stored_turn(home: Path, question: str) -> dict[str, Any]:
    """The stored assistant message after ``question`` (read-only, in the app's venv)."""
    code = r"""
import json, sys
from pathlib import Path
sys.path.insert(0, sys.argv[2])
from storage.store import open_store
s = open_store(Path(sys.argv[1]))
found = None
for c in s.conversations.all(""):
    msgs = s.conversations.messages(c.id)
    for i, m in enumerate(msgs):
        if m.role == "user" and m.content == sys.argv[3]:
            nxt = msgs[i + 1] if i + 1 < len(msgs) else None
            if nxt is not None and (found is None or m.created_at > found[0]):
                found = (m.created_at, nxt)
if found:
    m = found[1]
    print(json.dumps({"refused": bool(m.refused), "n_citations": len(m.citations or []),
                      "n_verdicts": len(m.verdicts or []), "content": m.content}, ensure_ascii=False, default=str))
else:
    print("{}")
"""
    env = {**os.environ, "PYTHONDONTWRITEBYTECODE": "1", "HF_HUB_OFFLINE": "1"}
    try:
        res = subprocess.run(
            [str(APP_PYTHON), "-c", code, str(home), str(APP_ROOT), question],
            capture_output=True, text=True, env=env, cwd=str(home), timeout=120,
        )  # fmt: skip
        return (
            json.loads(res.stdout.strip().splitlines()[-1])
            if res.stdout.strip()
            else {"error": res.stderr[-300:]}
        )
    except Exception as err:  # the report must not die on a cross-check
        return {"error": repr(err)}


# ---------------------------------------------------------------- main
def load_questions(args: argparse.Namespace) -> list[dict[str, Any]]:
    qs: list[dict[str, Any]] = []
    if args.questions:
        for line in Path(args.questions).read_text(encoding="utf-8").splitlines():
            if line.strip():
                row = json.loads(line)
                qs.append({"q": str(row["q"]), "new_chat": row.get("new_chat")})
    for kind, text in args.ask or []:
        qs.append({"q": text, "new_chat": kind == "new"})
    for i, row in enumerate(qs):
        if row["new_chat"] is None:
            row["new_chat"] = i == 0
    return qs


def main() -> int:
    OUT.mkdir(parents=True, exist_ok=True)
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--questions", help='JSONL file: one {"q": ..., "new_chat": bool} per line')
    ap.add_argument(
        "-q", dest="ask", action="append", type=lambda s: ("new", s), help="a question in a new chat"
    )
    ap.add_argument("-f", dest="ask", action="append", type=lambda s: ("follow", s), help="a follow-up")
    ap.add_argument("--no-llm", action="store_true", help="no answer model: quoted answers only")
    ap.add_argument(
        "--doc",
        action="append",
        default=[],
        help="one more file to upload beside the two built-in (repeatable)",
    )
    ap.add_argument("--answer-timeout", type=float, default=300.0, help="seconds to wait for one answer")
    ap.add_argument("--max-passages", type=int, default=30, help="evidence-panel passages to open per answer")
    ap.add_argument("--passage-chars", type=int, default=160, help="passage text printed per passage")
    ap.add_argument("--open-citations", type=int, default=3, help="citations to open per answer")
    ap.add_argument("--keep", action="store_true", help="keep the temp data home and log")
    args = ap.parse_args()
    questions = load_questions(args)
    if not questions:
        ap.error("give questions with -q/-f or --questions FILE.jsonl")

    from playwright.sync_api import sync_playwright

    tmp = Path(tempfile.mkdtemp(prefix="lexgate-ui-"))
    home, docs_dir = tmp / "lexgate-data", tmp / "docs"
    home.mkdir()
    docs_dir.mkdir()
    log_path = tmp / "streamlit.log"  # written by tests.e2e.appserver.app_server
    print(
        f"data home {home}; app log {log_path}; mode {'no answer model' if args.no_llm else 'app defaults (local model)'}"
    )
    if args.no_llm:
        save_no_llm_settings(home)
    t_start = time.monotonic()
    status = 0
    try:
        warmup = {"LEXGATE_WARMUP": "0"} if args.no_llm else {}
        with app_server(home, tmp, warmup) as url:
            print(f"app at {url} (up after {time.monotonic() - t_start:.1f} s)")
            with sync_playwright() as p:
                browser = p.chromium.launch(executable_path=str(CHROMIUM), headless=True, args=CHROMIUM_ARGS)
                pg = browser.new_page(viewport={"width": 1440, "height": 1500})
                pg.set_default_timeout(STEP_TIMEOUT_MS)
                console: list[str] = []
                pg.on(
                    "console", lambda m: console.append(f"{m.type}: {m.text}") if m.type == "error" else None
                )
                pg.on("pageerror", lambda e: console.append(f"pageerror: {e}"))
                pg.on(
                    "response",
                    lambda r: console.append(f"HTTP {r.status} {r.url}") if r.status >= 400 else None,
                )
                pg.on(
                    "request",
                    lambda r: (
                        console.append(f"non-local request {r.url}")
                        if not r.url.startswith(("http://127.0.0.1", "data:", "blob:"))
                        else None
                    ),
                )
                try:
                    t0 = time.monotonic()
                    print("\n== Documents page")
                    for line in upload(pg, url, docs_dir, [Path(d) for d in args.doc]):
                        print(line)
                    print(f"  (upload took {time.monotonic() - t0:.1f} s)")
                    for pr in problems(pg):
                        print(f"  PAGE PROBLEM: {pr}")
                    goto(pg, f"{url}/chat")
                    for n, row in enumerate(questions, start=1):
                        q = row["q"]
                        print(f"\n== Q{n} ({'new chat' if row['new_chat'] else 'follow-up'}): {q}")
                        if row["new_chat"]:
                            new_chat(pg, url)
                        try:
                            secs = ask(pg, q, args.answer_timeout)
                        except Exception as err:
                            status = 1
                            print(f"  FAILED waiting for the answer: {err}")
                            full_shot(pg, OUT / f"chat_{n}.png")
                            continue
                        msg = pg.locator(ASSISTANT).last
                        ans = read_answer(msg)
                        shown_refusal_note = any(re.match(r"^(检索范围|Searched:)", a) for a in ans["alerts"])
                        stored = stored_turn(home, q)
                        text = ans["answer"] or ans["whole"]
                        print(f"  answered in {secs:.1f} s")
                        if ans["quoted"]:
                            print("  quoted box:")
                            for line in ans["quoted"].splitlines():
                                print(f"    | {line}")
                        print("  answer as displayed:")
                        for line in (text or "(empty)").splitlines():
                            print(f"    > {line}")
                        for a in ans["alerts"]:
                            print(f"  alert: {a.replace(chr(10), ' / ')}")
                        for c in ans["captions"]:
                            print(f"  caption: {c}")
                        refusal = (
                            bool(stored.get("refused"))
                            if "refused" in stored
                            else (shown_refusal_note or bool(REFUSAL_RE.search(text)))
                        )
                        print(
                            f"  refusal: {'YES' if refusal else 'no'} (refusal note shown: {shown_refusal_note}; "
                            f"stored flag: {stored.get('refused', '?')}; "
                            f"refusal wording: {bool(REFUSAL_RE.search(text))})"
                        )
                        print(f"  citations shown: {ans['citations'] or 'none'}")
                        if ans["quote_cites"]:
                            print(f"  quoted-answer citation toggles: {ans['quote_cites']}")
                        for cit in ans["citations"][: args.open_citations]:
                            body = open_citation(pg, pg.locator(ASSISTANT).last, cit)
                            print(f"  opened citation {cit!r}:")
                            print(f"      {body[:400].replace(chr(10), ' / ')}")
                        if not ans["has_panel"]:
                            print("  evidence panel: not shown for this answer")
                        else:
                            rows = read_panel(pg, args.max_passages)
                            if not rows:
                                print("  evidence panel: shown, but no passage to open")
                            for r in rows:
                                if "header" in r:
                                    print(f"  evidence panel: {r['header']}")
                                    continue
                                print(f"   - {r['option']}")
                                print(f"       {r['kept_line']}")
                                print(f"       scores: {'; '.join(r['scores']) or '(none shown)'}")
                                snippet = r["text"].replace("\n", " ")[: args.passage_chars]
                                print(f"       text: {snippet}")
                        print(f"  stored: {json.dumps(stored, ensure_ascii=False)[:400]}")
                        for pr in problems(pg):
                            print(f"  PAGE PROBLEM: {pr}")
                        shot = OUT / f"chat_{n}.png"
                        full_shot(pg, shot)
                        print(f"  screenshot {shot}")
                    if console:
                        print("\n== browser console errors")
                        for c in console[:20]:
                            print(f"  {c[:300]}")
                finally:
                    browser.close()
    finally:
        log_text = log_path.read_text(errors="replace") if log_path.exists() else ""
        if "Traceback" in log_text:
            print("\n== app log has a traceback:")
            i = log_text.find("Traceback")
            print(log_text[i : i + 2500])
        if args.keep:
            print(f"\nkept {tmp}")
        else:
            shutil.rmtree(tmp, ignore_errors=True)
    print(f"\ntotal {time.monotonic() - t_start:.1f} s")
    return status


if __name__ == "__main__":
    sys.exit(main())

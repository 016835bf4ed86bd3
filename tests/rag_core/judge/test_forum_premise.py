"""A yes/no premise about the dispute forum (a court or arbitration) against a dispute clause naming
only the other one."""

from __future__ import annotations

from rag_core.judge.base import PassageInput
from rag_core.judge.classify import EVIDENCE, RELEVANCE
from rag_core.judge.conflict import conflict_score, premise_slots
from rag_core.judge.forum_premise import FORUM_STRENGTH, asserted_forum, forum_agreement, stated_forums
from rag_core.judge.local_judge import LocalJudge
from rag_core.settings import Settings

ARBITRATION_ZH = "第八条 争议解决\n因本合同产生的争议，提交上海国际仲裁中心仲裁。"
COURT_ZH = "第九条 争议解决\n因本合同发生的争议，双方协商解决；协商不成的，任何一方均可向工程所在地人民法院提起诉讼。"
COURT_EN = (
    "8. GOVERNING LAW\nThis Agreement is governed by the laws of the State of New York, and the parties "
    "submit to the exclusive jurisdiction of the courts located in New York County."
)
BOTH_EN = (
    "Any dispute shall be finally settled by arbitration in London. Either party may seek injunctive relief "
    "from any court of competent jurisdiction for a breach of confidentiality."
)
CONFIDENTIALITY_EN = (
    "The Recipient may disclose Confidential Information where required by law or court order."
)


def score(question: str, passage: str) -> float:
    return conflict_score(premise_slots(question), passage)[0]


def test_a_yes_no_question_naming_one_forum_asserts_it() -> None:
    assert asserted_forum("特许经营合同的争议由法院管辖吗？") == "court"
    assert asserted_forum("Are disputes resolved by arbitration?") == "arbitration"
    assert asserted_forum("发生纠纷可以起诉吗？") == "court"
    # a which-court (which-arbitration) question takes its forum as given (session 40)
    assert asserted_forum("争议由哪个法院管辖？") == "court"
    assert asserted_forum("In which courts may disputes be brought?") == "court"
    assert asserted_forum("Which arbitration commission resolves disputes?") == "arbitration"
    # another wh-question, an alternative, a negated question: no premise
    assert asserted_forum("争议怎么解决？") == ""
    assert asserted_forum("Where are disputes resolved?") == ""
    assert asserted_forum("哪个法院或仲裁机构管辖？") == ""
    assert asserted_forum("争议是仲裁还是诉讼解决？") == ""
    assert asserted_forum("Is there no arbitration clause?") == ""


def test_a_court_is_stated_only_as_a_forum_for_disputes() -> None:
    assert stated_forums(ARBITRATION_ZH) == {"arbitration"}
    assert stated_forums(COURT_ZH) == {"court"}
    assert stated_forums(COURT_EN) == {"court"}
    assert stated_forums(BOTH_EN) == {"arbitration", "court"}
    assert stated_forums(CONFIDENTIALITY_EN) == frozenset()


def test_the_other_forum_alone_contradicts_the_premise() -> None:
    t = Settings().verdict.t_conflict
    assert score("特许经营合同的争议由法院管辖吗？", ARBITRATION_ZH) == FORUM_STRENGTH > t
    assert score("Are disputes under the SaaS agreement resolved by arbitration?", COURT_EN) > t
    assert score("施工合同的争议可以仲裁吗？", COURT_ZH) > t
    # the same forum, both forums, a clause naming none, a question asserting none: no contradiction
    assert score("特许经营合同的争议是仲裁解决吗？", ARBITRATION_ZH) < t
    assert score("Are disputes resolved by arbitration?", BOTH_EN) < t
    assert score("Are disputes resolved by arbitration?", CONFIDENTIALITY_EN) < t
    assert score("争议怎么解决？", ARBITRATION_ZH) < t


def test_a_which_court_question_over_an_arbitration_clause_is_corrected() -> None:
    """Try-out (session 40): "股权转让协议约定由哪个法院管辖？" over an agreement that sends disputes to the
    上海仲裁委员会 was refused ("no passage holds what was asked") instead of told there is no court."""
    t = Settings().verdict.t_conflict
    assert score("股权转让协议约定由哪个法院管辖？", ARBITRATION_ZH) == FORUM_STRENGTH > t
    assert score("Which court has jurisdiction over disputes?", ARBITRATION_ZH) > t
    assert score("争议由哪个法院管辖？", COURT_ZH) < t  # the court it asks about is named
    assert score("Which court has jurisdiction over disputes?", BOTH_EN) < t


def test_the_note_names_both_forums() -> None:
    _, why = conflict_score(premise_slots("争议由法院管辖吗？"), ARBITRATION_ZH)
    assert getattr(why, "code", "") == "con_forum"
    assert "a court" in why and "arbitration" in why


LEASE_COURT_ZH = (
    "第八条 争议解决\n因本合同引起的或与本合同有关的任何争议，双方应友好协商解决；协商不成的，"
    "任何一方均可向房屋所在地人民法院起诉。"
)


def test_the_asked_forum_alone_answers_the_premise() -> None:
    assert forum_agreement("房屋租赁合同的争议由法院管辖吗？", LEASE_COURT_ZH)[0] == FORUM_STRENGTH
    assert forum_agreement("Are disputes resolved by arbitration?", ARBITRATION_ZH)[0] == FORUM_STRENGTH
    # the other forum, both forums, no forum, no premise: no agreement
    assert forum_agreement("争议可以仲裁吗？", LEASE_COURT_ZH)[0] == 0.0
    assert forum_agreement("Are disputes resolved by arbitration?", BOTH_EN)[0] == 0.0
    assert forum_agreement("Can disputes go to court?", CONFIDENTIALITY_EN)[0] == 0.0
    assert forum_agreement("争议怎么解决？", LEASE_COURT_ZH)[0] == 0.0
    # a which-court question is answered by the clause naming the court (session 40)
    assert forum_agreement("争议由哪个法院管辖？", LEASE_COURT_ZH)[0] == FORUM_STRENGTH


def test_the_local_judge_keeps_the_clause_naming_the_asked_forum_as_evidence() -> None:
    """Try-out: the lease's court clause had evidence 0.47 for "…由法院管辖吗？" and the question was refused."""
    settings = Settings().verdict
    judge = LocalJudge(settings)
    [verdict] = judge.judge("房屋租赁合同的争议由法院管辖吗？", [PassageInput("p1", LEASE_COURT_ZH)])
    assert verdict.label == "EVIDENCE" and verdict.scores[EVIDENCE] >= FORUM_STRENGTH
    assert verdict.explanation_code.startswith("forum_agreed")
    [other] = judge.judge("房屋租赁合同的争议可以仲裁吗？", [PassageInput("p1", LEASE_COURT_ZH)])
    assert other.label == "CONFLICTING"


def test_a_markdown_heading_does_not_lower_the_clause_it_heads() -> None:
    """A Markdown contract's "## 第八条" heading cost its dispute clause relevance 0.95 → 0.74 and
    "运输合同的争议由哪里的法院管辖？" was refused (try-out on a transport contract written as .md)."""
    clause = "第八条 争议解决\n\n因本合同发生的争议，双方协商解决；协商不成的，向甲方所在地人民法院提起诉讼。"
    judge = LocalJudge(Settings().verdict)
    plain, marked = judge.scores(
        "争议由哪里的法院管辖？", [PassageInput("a", clause), PassageInput("b", "## " + clause)]
    )
    for score in (RELEVANCE, EVIDENCE):
        assert marked[0][score] == plain[0][score] > 0.5

"""Clause types: the CUAD categories the judge knows, how lawyers ask about each, and the thesaurus.

Why a table: the judge must tell "a clause about the same topic" from "the clause that was asked
about". The passage side is a fitted classifier (CUAD span text vs other text, ``fitted.py``); the
question side is this thesaurus (general contract-drafting vocabulary in English and Chinese,
written from legal knowledge, not from any evaluation file) backed by the same classifier applied
to the question. The question phrasings serve two roles: phrasing 0 builds the evidence training
pairs on the fit contracts, phrasing 1 (worded differently) is what ``bench refusal`` asks on the
check contracts, so the bench measures new phrasings on new contracts.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class ClauseType:
    """One CUAD category with its question phrasings and the words that name it in a question."""

    name: str  # the CUAD category, exactly as in clause_spans.jsonl
    zh: str  # the clause's name in Chinese (refusal text: 文件中没有……条款)
    en: str  # the clause's name in English (refusal text)
    questions_en: tuple[str, str]
    questions_zh: tuple[str, str]
    triggers: tuple[str, ...]  # regular expressions over the lower-cased question


CLAUSE_TYPES: tuple[ClauseType, ...] = (
    ClauseType(
        "Governing Law", "适用法律", "governing law",
        ("Which law governs this agreement?", "What jurisdiction's laws apply to the contract?"),
        ("本合同适用哪里的法律？", "合同约定的准据法是什么？"),
        (r"governing law", r"\bgovern(?:s|ed)?\b", r"which law", r"applicable law", r"laws? of which",
         r"jurisdiction's laws", r"适用法律", r"准据法", r"适用.{0,4}法律", r"哪里的法律", r"哪国法律"),
    ),
    ClauseType(
        "Expiration Date", "期限", "term",
        ("When does this agreement expire?", "How long is the initial term of the contract?"),
        ("本合同什么时候到期？", "合同的有效期是多久？"),
        # "the license term" / "许可期限" is the document's term, not its grant (browser try-out, session 29:
        # "How long is the license term?" was typed License Grant and quoted the grant clause)
        (r"expir", r"initial term", r"\bterm of (?:the|this)", r"how long .{0,30}(?:agreement|contract) (?:last|run|remain)",
         r"\b(?:licen[cs]e|lease|agreement|contract) term\b", r"how long .{0,30}(?:licen[cs]e|lease) (?:last|run|remain)",
         # "合同的期限", "特许经营的期限": typed only by the classifier's guess before session 42, a guess that is often
         # wrong for Chinese questions (``fitted.question_view``)
         r"到期", r"有效期", r"(?:合同|协议|许可|租赁|经营)的?期限", r"租期", r"期满", r"期限届满"),
    ),
    ClauseType(
        "Renewal Term", "续约", "renewal",
        ("Does the agreement renew automatically?", "What are the renewal terms of the contract?"),
        ("合同到期后会自动续约吗？", "合同的续期条件是什么？"),
        (r"renew", r"extension of the term", r"续约", r"续期", r"续签", r"自动延长"),
    ),
    ClauseType(
        "Notice Period To Terminate Renewal", "不续约通知", "notice of non-renewal",
        ("How much notice is needed to stop the automatic renewal?",
         "What notice period applies to prevent the contract from renewing?"),
        ("不续约需要提前多久通知？", "要阻止合同自动续期，应提前多少天通知？"),
        (r"non-?renewal", r"notice .{0,60}renew", r"renew.{0,60}notice", r"不续约", r"不再续", r"阻止.{0,6}续"),
    ),
    ClauseType(
        "Termination For Convenience", "任意解除", "termination for convenience",
        ("Can a party terminate the agreement for convenience?",
         "May either party end the contract without cause?"),
        ("一方可以无理由解除合同吗？", "合同能否在没有违约的情况下提前终止？"),
        (r"convenience", r"without cause", r"for any reason", r"terminat.{0,40}(?:any time|at will)",
         r"无理由", r"任意解除", r"随时解除", r"(?:没有|无|非因|不因).{0,6}违约.{0,12}(?:解除|终止)"),
    ),
    ClauseType(
        "Anti-Assignment", "转让限制", "assignment",
        ("Can this agreement be assigned to a third party?",
         "Is consent required to transfer the contract to another company?"),
        ("合同可以转让给第三方吗？", "转让本合同是否需要对方同意？"),
        (r"assign", r"transfer (?:the|this) (?:agreement|contract)", r"转让(?:本|该)(?:合同|协议)",
         r"(?:合同|协议)(?:可以|能否|能|可否)?转让给", r"权利义务.{0,4}转让", r"转租", r"转让给第三",
         # a lease's alienation: "Can the Tenant sublet part of the premises?" was typed nothing (session 39)
         r"sub-?let", r"sub-?leas", r"underlet"),
    ),
    ClauseType(
        "Change Of Control", "控制权变更", "change of control",
        ("What happens on a change of control of a party?",
         "Does a merger or acquisition of a party affect the agreement?"),
        ("一方控制权发生变更时合同如何处理？", "一方被收购或合并对合同有什么影响？"),
        (r"change of control", r"change in control", r"merger", r"acqui", r"控制权", r"被收购", r"并购", r"合并"),
    ),
    ClauseType(
        "Non-Compete", "竞业限制", "non-compete",
        ("Is there a non-compete obligation?", "Is a party restricted from competing with the other?"),
        ("合同有竞业限制吗？", "竞业限制的期限是多久？"),
        (r"non-?compet", r"\bcompet", r"竞业", r"同业竞争", r"不得从事.{0,8}竞争"),
    ),
    ClauseType(
        "Exclusivity", "排他", "exclusivity",
        ("Is the relationship exclusive?", "Does the agreement grant exclusive rights?"),
        ("合同约定了独家或排他权吗？", "一方是否享有排他性权利？"),
        (r"exclusiv", r"独家", r"排他", r"专属"),
    ),
    ClauseType(
        "No-Solicit Of Employees", "不招揽员工", "non-solicitation of employees",
        ("Can a party hire the other party's employees?",
         "Is there a restriction on soliciting the other side's staff?"),
        ("一方可以招聘对方的员工吗？", "合同是否禁止挖角对方员工？"),
        (r"solicit", r"hire .{0,30}employees", r"poach", r"招揽", r"挖角", r"招聘对方"),
    ),
    ClauseType(
        "Audit Rights", "审计", "audit rights",
        ("Does a party have the right to audit the other's books?",
         "Can the records be inspected or audited?"),
        ("一方有权审计对方的账目吗？", "合同是否允许检查或审计对方的记录？"),
        (r"audit", r"inspect .{0,20}(?:books|records)", r"审计", r"查账", r"账簿", r"检查.{0,6}记录"),
    ),
    ClauseType(
        "Cap On Liability", "责任上限", "limitation of liability",
        ("Is there a cap on liability?", "What is the maximum amount a party can be liable for?"),
        ("合同对赔偿责任设有上限吗？", "一方承担责任的最高金额是多少？"),
        (r"cap on liabilit", r"limitation of liabilit", r"maximum .{0,20}liab", r"liabilit.{0,20}(?<!un)(?:limit|exceed)",
         r"\bcap(?:s|ped|ping)?\b.{0,20}liabilit",
         r"责任上限", r"赔偿上限", r"责任限额", r"最高.{0,6}(?:赔偿|责任)", r"(?:赔偿|责任)的?最高", r"最多.{0,4}赔"),
    ),
    ClauseType(
        "Uncapped Liability", "无上限责任", "uncapped liability",
        ("Is any liability excluded from the cap?", "Which liabilities are unlimited?"),
        ("哪些责任不受赔偿上限限制？", "是否有不设上限的赔偿责任？"),
        (r"uncapped", r"unlimited liabilit", r"liabilit.{0,20}unlimited", r"excluded from the (?:cap|limitation)", r"不受.{0,6}上限", r"无上限",
         r"不设上限"),
    ),
    ClauseType(
        "Liquidated Damages", "违约金", "liquidated damages",
        ("Are liquidated damages payable on breach?", "What penalty applies if a party breaches?"),
        ("违约金是多少？", "一方违约需要支付违约金吗？"),
        (r"liquidated damages", r"penalt", r"违约金", r"罚金", r"滞纳金"),
    ),
    ClauseType(
        "Insurance", "保险", "insurance",
        ("What insurance must a party maintain?", "Is a party required to carry insurance coverage?"),
        ("合同要求一方购买什么保险？", "一方是否必须投保？"),
        (r"insur", r"保险", r"投保"),
    ),
    ClauseType(
        "Warranty Duration", "保修期", "warranty period",
        ("How long is the warranty period?", "For how long does the warranty last?"),
        ("质量保证期是多久？", "保修期有多长？"),
        (r"warrant.{0,20}(?:period|duration|last|months|years)", r"how long .{0,20}warrant", r"保修期", r"质保期",
         r"质量保证期", r"保修.{0,4}多"),
    ),
    ClauseType(
        "Ip Ownership Assignment", "知识产权归属", "intellectual property ownership",
        ("Who owns the intellectual property created under the agreement?",
         "Is intellectual property assigned to one of the parties?"),
        ("合同项下产生的知识产权归谁所有？", "知识产权是否转让给一方？"),
        (r"intellectual property", r"\bip\b", r"owns? .{0,30}(?:work product|inventions|developments)", r"知识产权",
         r"著作权归", r"专利归"),
    ),
    ClauseType(
        "License Grant", "许可", "licence grant",
        ("What license is granted under the agreement?", "Does a party grant the other a license?"),
        ("合同授予了什么许可？", "一方是否许可对方使用？"),
        # "license fee" / "许可费" asks for a price, "the license agreement" names the document
        (r"licen[cs]e(?!e|[ds]?\s*(?:fees?|royalt|payments?|costs?|prices?|charges?|agreement|contract))",
         r"许可(?!使用费|费|协议|合同)", r"授权使用(?!费)"),
    ),
    ClauseType(
        "Minimum Commitment", "最低采购量", "minimum commitment",
        ("Is there a minimum purchase commitment?", "What minimum order quantity or spend is required?"),
        ("合同约定了最低采购量吗？", "一方每年至少要采购多少？"),
        (r"minimum .{0,20}(?:purchase|order|commitment|quantity|volume|spend)", r"最低采购", r"最低订购", r"至少.{0,6}采购",
         r"最低.{0,4}(?:数量|金额)"),
    ),
    ClauseType(
        "Revenue/Profit Sharing", "收益分成", "revenue or profit sharing",
        ("Does a party share revenue or profits with the other?", "What royalty or revenue share is paid?"),
        ("合同约定了收益分成吗？", "利润或收入如何分配？"),
        (r"revenue", r"profit", r"royalt", r"收益分成", r"利润", r"分成", r"提成"),
    ),
    ClauseType(
        "Post-Termination Services", "终止后义务", "post-termination obligations",
        ("What must a party do after the agreement ends?",
         "Are there obligations that continue after termination?"),
        ("合同终止后一方还需要履行什么义务？", "合同结束后有哪些持续义务？"),
        (r"after (?:the )?(?:termination|expiration|agreement ends)", r"post-termination", r"following termination",
         # "What happens to customer data on termination?" was typed Termination For Convenience by the guess and
         # the clause "On termination Provider shall make Customer data available for export …" judged not it (0.04)
         r"\b(?:on|upon|at) (?:the )?(?:termination|expiry|expiration)\b",
         r"终止后", r"结束后", r"到期后.{0,6}义务", r"(?:终止|解除)时"),
    ),
    ClauseType(
        "Covenant Not To Sue", "不起诉承诺", "covenant not to sue",
        ("Has a party agreed not to sue or challenge the other's rights?",
         "Is a party barred from contesting the validity of the other's IP?"),
        ("一方是否承诺不起诉对方？", "一方是否不得对对方的权利提出异议？"),
        (r"not to sue", r"challenge .{0,30}(?:validity|rights)", r"contest", r"不起诉", r"不得.{0,6}异议", r"不得.{0,4}质疑"),
    ),
    ClauseType(
        "Rofr/Rofo/Rofn", "优先权", "right of first refusal",
        ("Does a party have a right of first refusal?", "Is there a right of first offer or negotiation?"),
        ("一方有优先购买权吗？", "合同是否约定了优先谈判权？"),
        (r"first refusal", r"first offer", r"first negotiation", r"\brofr\b", r"优先购买", r"优先谈判", r"优先权"),
    ),
    ClauseType(
        "Most Favored Nation", "最惠待遇", "most favoured terms",
        ("Is there a most favored nation clause?", "Must a party match better terms given to others?"),
        ("合同有最惠待遇条款吗？", "一方是否必须给予不低于他人的优惠条件？"),
        (r"most favou?red", r"\bmfn\b", r"better terms", r"最惠", r"最优惠"),
    ),
    ClauseType(
        "Third Party Beneficiary", "第三方受益人", "third-party beneficiaries",
        ("Are there third-party beneficiaries of the agreement?", "Can a non-party enforce the contract?"),
        ("合同有第三方受益人吗？", "合同以外的第三人可以主张合同权利吗？"),
        (r"third[- ]party beneficiar", r"non-party", r"第三方受益", r"第三人.{0,6}(?:主张|权利)"),
    ),
    ClauseType(
        "Non-Disparagement", "不诋毁", "non-disparagement",
        ("Is there a non-disparagement obligation?", "Are the parties barred from criticizing each other?"),
        ("合同是否约定不得诋毁对方？", "双方是否不得发表贬损对方的言论？"),
        (r"disparag", r"criticiz", r"诋毁", r"贬损", r"负面评价"),
    ),
    ClauseType(
        "Effective Date", "生效日期", "effective date",
        ("When does the agreement take effect?", "What is the effective date of the contract?"),
        ("合同什么时候生效？", "合同的生效日期是哪天？"),
        (r"effective date", r"take effect", r"commence", r"生效"),
    ),
)  # fmt: skip

CATEGORY_NAMES: tuple[str, ...] = tuple(c.name for c in CLAUSE_TYPES)
BY_NAME: dict[str, ClauseType] = {c.name: c for c in CLAUSE_TYPES}

BENCH_CATEGORIES: tuple[str, ...] = (
    "Governing Law", "Expiration Date", "Renewal Term", "Notice Period To Terminate Renewal",
    "Termination For Convenience", "Anti-Assignment", "Change Of Control", "Non-Compete", "Exclusivity",
    "No-Solicit Of Employees", "Audit Rights", "Cap On Liability", "Uncapped Liability",
    "Liquidated Damages", "Insurance", "Warranty Duration", "Ip Ownership Assignment", "License Grant",
    "Minimum Commitment", "Revenue/Profit Sharing",
)  # fmt: skip
"""The ~20 common categories ``bench refusal`` asks about (present in 5-85% of contracts)."""

_COMPILED: tuple[tuple[ClauseType, tuple[re.Pattern[str], ...]], ...] = tuple(
    (c, tuple(re.compile(t) for t in c.triggers)) for c in CLAUSE_TYPES
)


def trigger_matrix(texts: list[str]) -> np.ndarray:
    """(n, K) 0/1: whether each text uses the thesaurus words of each clause type.

    A feature of the clause classifier beside the text's vector: fitted on English CUAD (where the
    English words occur in the clauses), it carries over to a Chinese clause through the Chinese
    words of the same entry ("竞业", "违约金", "适用…法律"), which the vector alone does poorly.
    """
    out = np.zeros((len(texts), len(_COMPILED)))
    for i, t in enumerate(texts):
        low = t.lower()
        for j, (_c, patterns) in enumerate(_COMPILED):
            out[i, j] = 1.0 if any(p.search(low) for p in patterns) else 0.0
    return out


NARROWER: dict[str, str] = {
    "Notice Period To Terminate Renewal": "Renewal Term",
    "Uncapped Liability": "Cap On Liability",
    "Ip Ownership Assignment": "Anti-Assignment",
    "Warranty Duration": "Expiration Date",
}
"""A narrower clause type → the broader one whose words it shares ("notice … to stop the renewal"
also says "renew"): when a question names both, it asks about the narrower one."""


@dataclass(frozen=True)
class Topic:
    """A subject lawyers ask about that is no CUAD category, with the words that name it."""

    name: str
    zh: str  # its name in Chinese (refusal text: 文件中没有找到……条款)
    en: str  # its name in English (refusal text)
    words: tuple[str, ...]  # regular expressions over the lower-cased text


OTHER_TOPICS: tuple[Topic, ...] = (
    Topic("dispute resolution", "争议解决", "dispute resolution",
          (r"disput", r"arbitrat", r"\bcourts?\b", r"litigat", r"lawsuit", r"controvers", r"争议", r"纠纷", r"仲裁",
           r"诉讼", r"起诉", r"法院", r"管辖")),
    Topic("price and payment", "价款与支付", "price and payment",
          (r"\bpric", r"\bfees?\b", r"\bpa(?:y|id)", r"invoice", r"deposit", r"\brent\b", r"compensat", r"价款", r"价格", r"涨价", r"调价", r"提价",
           # what is paid for nothing ("Is the SaaS service provided free of charge?", session 45, named no topic)
           r"free of charge", r"\bfor free\b", r"\bcharge[sd]?\b(?!\s+of\b)", r"免费", r"无偿", r"收费",
           r"单价", r"总价", r"费用", r"服务费", r"租金", r"押金", r"保证金", r"货款", r"付款", r"支付", r"多少钱", r"利息",
           r"报酬", r"薪酬", r"工资", r"许可.{0,2}费", r"使用费",
           # named sums a party is paid besides a price (session 29: "劳动合同约定了年终奖吗？" named no topic, and the
           # clause classifier's guess, Covenant Not To Sue, was named in the refusal)
           r"奖金", r"年终奖", r"\bbonus", r"佣金", r"提成", r"(?<!arbitration )\bcommission", r"\broyalt",
           r"\bseverance", r"经济补偿", r"遣散",
           # sums named by what they pay for, and paying off ("乙方什么时候付清股权转让款？" named no topic either, and was
           # typed Revenue/Profit Sharing by the classifier's guess and refused beside the payment clause)
           r"转让款", r"房款", r"首付款", r"尾款", r"[付交缴]清",
           # a loan's interest and repayment (session 30: "What is the interest rate on the loan?" was typed
           # Revenue/Profit Sharing by the guess and refused); not a security, controlling or conflicting interest
           r"(?<!security )(?<!controlling )(?<!of )\binterests?\b(?! in\b)", r"\brepa(?:y|id|yment)", r"本金", r"还款",
           # a payment schedule (session 34: "When is the last instalment due?" was typed Expiration Date by the
           # guess and the commercial lease's end date quoted)
           r"\binstal+ments?\b", r"\btranches?\b", r"分期", r"期款",
           # carriage charges ("How is the freight calculated?" was typed Revenue/Profit Sharing by the guess)
           r"\bfreight", r"运费", r"运输费",
           # what comes off a price (session 44: "What discount does the distributor get?" was typed Revenue/Profit
           # Sharing by the guess and refused beside "less a distributor discount of thirty-two percent (32%)")
           r"\bdiscount", r"\brebates?\b", r"折扣", r"折让", r"返利", r"优惠")),
    # a loan's own terms (session 38: "借款期限是十二个月，对吗？" over a base with a 借款合同 and English contracts read a
    # services agreement's "continue for a period of 1 year" and a definition's "Year: the period of 12 months" as stating
    # the premise, and the answer opened "the documents differ"; no passage about a loan was among them)
    Topic("loan", "借款", "loan",
          (r"\bloans?\b", r"\bborrow(?:s|ed|ers?|ing)?\b", r"\blend(?:s|ers?|ing)?\b", r"借款", r"贷款", r"借贷", r"出借",
           r"借钱")),
    Topic("confidentiality", "保密", "confidentiality",
          (r"confidential", r"\bsecret", r"non-?disclosure", r"保密", r"秘密",
           # returning or destroying what was disclosed (session 30: "How many days does the Recipient have to
           # return materials?" was typed Warranty Duration by the guess and refused beside the NDA's clause)
           r"\bdestr(?:oy|uction)", r"\breturn.{0,20}\b(?:materials|documents)", r"销毁", r"返还.{0,6}(?:资料|文件)")),
    Topic("delivery", "交付", "delivery", (r"deliver", r"\bship", r"交付", r"交货", r"发货", r"运输", r"送达")),
    Topic("acceptance", "验收", "acceptance", (r"acceptance", r"inspect", r"验收", r"检验")),
    # who owns goods and bears their loss (session 30: "设备的所有权什么时候转移？" was typed Post-Termination Services
    # by the guess and refused beside "在甲方付清全部价款之前，设备所有权归乙方所有")
    Topic("title and risk", "所有权与风险", "title and risk of loss",
          (r"\btitle (?:to|in|of the goods|passes|shall pass|transfers?)\b", r"risk of loss", r"所有权", r"风险转移",
           r"毁损", r"灭失",
           # a leased asset's fate at the end of the lease (session 45: "Can the lessee buy the equipment at the end of
           # the lease?" was typed Rofr/Rofo/Rofn by the classifier's guess and refused beside the 留购 clause)
           r"留购", r"purchase option", r"option to (?:buy|purchase)",
           r"\b(?:buy|purchase|keep)\b.{0,40}\b(?:at|on|after) the end of the (?:lease|term|rental)", r"期满后.{0,8}归")),
    Topic("breach and late performance", "违约责任", "breach",
          (r"breach", r"\bdefault", r"\blate\b", r"overdue", r"违约", r"逾期")),
    Topic("force majeure", "不可抗力", "force majeure",
          (r"force majeure", r"act of god", r"不可抗力")),
    # "inform" too (session 35: "How much notice must the processor give before changing sub-processors?" capped the
    # answering "2.2 The Processor shall inform the Controller at least thirty (30) days in advance …" as silent on notices)
    Topic("notices", "通知", "notices", (r"\bnotices?\b", r"\bnotif", r"\binform(?:s|ed|ing)?\b", r"通知", r"告知")),
    # money held back for a buyer's claims (session 34: "资产收购协议的托管期限是多久？", asked as "托管期限是多久？" inside the
    # routed agreement, was typed Expiration Date by the guess at 0.50 and refused beside the escrow clause)
    Topic("escrow", "托管", "escrow", (r"escrow", r"托管", r"共管", r"holdback", r"\bheld\s+back\b")),
    # a partnership's admission, withdrawal and management (session 34: "新合伙人入伙需要什么条件？" was typed Minimum
    # Commitment by the guess, 0.87, and refused beside "6.1 新合伙人入伙，须经全体合伙人一致同意")
    Topic("partnership affairs", "合伙事务", "partnership affairs",
          (r"入伙", r"退伙", r"执行事务", r"合伙事务", r"\badmi(?:t|ssion)\w*\s+(?:of\s+)?(?:an?\s+)?(?:new\s+)?partners?\b",
           r"\bwithdraw\w*\s+from\s+the\s+partnership", r"\bpartnership(?:'s)?\s+affairs", r"\bmanaging\s+partner")),
    # a company's board and its shareholders' transfers (session 35: "How long is the founder's lock-up?" was typed
    # Covenant Not To Sue by the guess, 0.84, and refused beside "4. Lock-Up … thirty-six (36) months"; "What happens
    # if the board is deadlocked?" quoted the quorum lines, not the deadlock clause)
    Topic("board and share transfers", "董事会与股权转让限制", "board and share transfer",
          (r"\block-?ups?\b", r"pre-?emption", r"drag-?along", r"tag-?along", r"\bco-?sale", r"\bboard\b",
           r"\bdirectors?\b", r"\bquorum", r"deadlock", r"reserved matters?", r"锁定期", r"限售期", r"优先购买",
           r"领售", r"拖售", r"随售", r"共同出售", r"董事", r"法定人数", r"僵局", r"保留事项", r"一票否决",
           # the parties of a shareholders' agreement ("Which matters need the investor's consent?" was typed
           # Rofr/Rofo/Rofn by the guess, 0.82, and the deadlock clause quoted, not 2.1's reserved matters)
           r"\binvestors?\b", r"\bfounders?\b", r"投资人", r"投资方", r"创始人")),
    # a registration's number (session 35: "What is the trademark registration number?" was typed Covenant Not To Sue
    # by the guess, and the infringement clause quoted, not "…“百川”商标（注册号第12345678号）")
    Topic("registration", "注册登记", "registration",
          (r"\bregist(?:ration|ered)\s+(?:no\b|number)", r"注册号", r"注册证号", r"登记号", r"登记证号")),
    # a licensor's quality control of licensed goods (session 35: "甲方多久抽检一次商品质量？" was typed Warranty Duration by
    # the guess, and the software licence's 质保期 was quoted though the trademark licence's "每半年…抽检" was EVIDENCE)
    # a suretyship guarantee (session 37 browser: "保证期间是多久？" over a 保证合同 was typed Warranty Duration by the
    # guess and refused as "passages look like a warranty clause"; 保证期间 is the guarantor's period, not a 保修期)
    Topic("guarantee", "保证担保", "guarantee (suretyship)",
          (r"保证期间", r"保证人", r"担保人", r"保证方式", r"保证范围", r"保证责任", r"连带责任保证", r"一般保证",
           r"最高额保证", r"担保", r"\bguarantors?\b", r"\bsurety", r"\bsuretyship",
           # a guarantee of a debt in English (session 38: "How long is the guarantee period in the loan contract?" was typed
           # Warranty Duration by the guess and refused beside "保证期间为主债务履行期限届满之日起三年"); a product's is a warranty
           r"\bguarantee\s+period", r"\bperiod\s+of\s+(?:the\s+)?guarantee\b",
           r"\b(?:personal|joint(?:\s+and\s+several)?|parent(?:\s+company)?|corporate|bank)\s+guarantee",
           r"\bguarantee(?:s|d)?\s+(?:of|for)\s+(?:the\s+)?(?:loan|debt|borrower|obligations)")),
    # an employee's working terms (session 41: "员工每周工作多少小时？" was typed Minimum Commitment by the guess, 0.51, and
    # refused beside "Normal working hours are 37.5 hours per week"; "员工每年有多少天带薪假？" was refused beside the
    # holiday clause)
    Topic("working terms", "工时、休假与薪酬福利", "working hours, leave and pay",
          (r"\bworking (?:hours|time|week)\b", r"\bhours?\s+(?:a|per|each)\s+(?:week|day)\b", r"\bovertime",
           r"\bholidays?\b", r"\bvacation", r"\b(?:annual|sick|paid|parental|maternity|paternity)\s+leave\b", r"\bsick pay",
           r"\bprobation", r"\bsalar(?:y|ies)", r"\bwages?\b", r"\bpensions?\b", r"\ballowances?\b",
           r"工作时间", r"工时", r"(?:每周|每天|每日|每月)工作", r"加班", r"休假", r"年假", r"年休假", r"带薪", r"病假", r"产假",
           r"婚假", r"假期", r"试用期", r"年薪", r"月薪", r"薪资", r"薪水", r"养老", r"社保", r"社会保险", r"公积金", r"津贴",
           r"补贴")),
    Topic("quality control", "质量监督", "quality control",
          (r"quality (?:control|standards?|inspections?|checks?)", r"\bspot[- ]checks?", r"\bsampl(?:e|ing) (?:test|inspect)",
           r"抽检", r"抽查", r"质量监督", r"质量标准", r"质量检查")),
    # a SaaS agreement's uptime and the credits it earns (session 45: "如果月可用率低于99%，客户能获得多少服务抵扣？" named
    # no word, was typed Minimum Commitment by the classifier's guess and refused beside the service-level table)
    Topic("service levels", "服务水平", "service levels",
          (r"service[- ]levels?", r"\bslas?\b", r"\buptime", r"\bavailability\b", r"service credits?", r"可用率", r"可用性",
           r"服务水平", r"服务等级", r"服务抵扣", r"服务积分", r"服务赔偿")),
)  # fmt: skip
"""Topics lawyers ask about that are no CUAD category, in general drafting words (English, Chinese).

Why: with no thesaurus word the question falls back to the clause classifier, which was fitted on
clauses of CUAD categories and must name one of them: "争议怎么解决？" came out Covenant Not To Sue
(0.55) and "乙方逾期付款要承担什么责任？" Cap On Liability, so the dispute and late-payment clauses were
judged "not the asked type" and the questions refused. A question on one of these topics asks
about no CUAD category unless a thesaurus word says so; and a question on one of them that no
passage mentions at all is about a clause the documents lack (``clause_gate.absent_topic``)."""

DOCUMENT_TOPICS: frozenset[str] = frozenset({"loan"})
"""Topics that also name a kind of contract, every clause of which is about them (a 借款合同 is about the loan; a
保密协议's 保密 is also a clause of other contracts): a contract's name word naming one asks nothing of its own
(``steps.judging.without_title_words``)."""

_TOPIC_COMPILED: tuple[tuple[Topic, tuple[re.Pattern[str], ...]], ...] = tuple(
    (t, tuple(re.compile(w) for w in t.words)) for t in OTHER_TOPICS
)


def topics_named(text: str) -> list[Topic]:
    """The topics of ``OTHER_TOPICS`` whose words occur in the text, in table order."""
    low = text.lower()
    return [t for t, patterns in _TOPIC_COMPILED if any(p.search(low) for p in patterns)]


PARTY_ROLES_EN = (
    r"part(?:y|ies)|licensee|licensor|landlord|tenant|lessor|lessee|buyer|seller|purchaser|supplier|vendor|"
    r"customer|distributor|employer|employee|lender|borrower|contractor|consultant|client|company|owner|"
    r"guarantor|assignee|assignor|transferee|transferor|franchisee|franchisor|agent|principal|signator(?:y|ies)|"
    r"provider|manufacturer|developer|reseller|recipient|investor|shareholder|founder|processor|controller"
)
PARTY_ROLES_ZH = (
    r"甲方|乙方|丙方|出租方|承租方|出租人|承租人|许可方|被许可方|买方|卖方|供方|需方|供应商|借款人|贷款人|出借人|"
    r"用人单位|劳动者|转让方|受让方|当事人|双方|各方|签约方|委托方|受托方|"
    r"被特许人|特许人|被许可人|许可人|出卖人|买受人|发包人|承包人|承包方|保证人|担保人|供应方|采购方|服务方|投资方|"
    r"承运人|托运人|收货人|保管人|存货人|定作人|承揽人|赠与人|受赠人|合伙人|居间人|代理商|代理人|经销商|委托人|受托人|"
    r"债权人|债务人|股东|业主|"
    r"房东|房客|租客|租户|买家|卖家|雇主|老板"  # a client's words for the roles: "房东是谁？"
)
ROLE_POSITIONS = "甲乙丙丁戊"
"""What follows a Chinese role to tell several parties of that kind apart ("合伙人丙")."""
PARTY_ROLE_ZH = rf"(?:{PARTY_ROLES_ZH})(?:[{ROLE_POSITIONS}](?!方))?"
"""A Chinese role, with the position that tells several parties of one kind apart ("合伙人丙", "股东乙"):
"合伙人丙是谁？" asked no role, and the quoted answer led with "5.1 …委托合伙人甲为执行事务合伙人" (session 34)."""
_PARTY_IDENTITY = (
    re.compile(
        rf"^\s*who\s+(?:is|are|was|were)\s+(?:the\s+)?(?:[a-z]+\s+){{0,2}}?(?:{PARTY_ROLES_EN})\b"
        rf"(?:\s+and\s+(?:the\s+)?(?:[a-z]+\s+)?(?:{PARTY_ROLES_EN})\b)?"
        r"(?:\s+(?:under|in|of|to|for)\b[^?]*)?\s*\??\s*$",
        re.I,
    ),
    re.compile(
        rf"^(?:《[^》]{{1,80}}》)?.{{0,12}}?(?:{PARTY_ROLE_ZH})(?:分别)?(?:是谁|是哪家公司|是哪家企业|是哪家单位|是哪家|是哪个|叫什么|的名称是什么|名称是什么)[？?]?\s*$"
    ),
    re.compile(rf"^\s*谁是.{{0,12}}?(?:{PARTY_ROLE_ZH})[？?]?\s*$"),
    re.compile(  # who signs for a party: "(And) who signs for the transferee?" (had been typed Covenant Not To Sue)
        rf"^\s*(?:and\s+)?who\s+(?:signs?|signed|will\s+sign|executes?|executed)\b[^?]{{0,40}}?"
        rf"\b(?:for|on\s+behalf\s+of)\s+(?:the\s+)?(?:[a-z]+\s+)?(?:{PARTY_ROLES_EN})\b[^?]*\??\s*$",
        re.I,
    ),
    re.compile(
        rf"^\s*(?:那)?(?:是)?谁(?:代表|替)(?:{PARTY_ROLE_ZH})(?:签字|签署|签约|签名|盖章|签章)[^？?]{{0,8}}[？?]?\s*$"
    ),
)


_ROLE_FOLLOW_UP = (
    re.compile(
        rf"^\s*(?:and|what\s+about|how\s+about)\s+(?:the\s+)?(?:[a-z]+\s+)?(?:{PARTY_ROLES_EN})\b\s*\??\s*$",
        re.I,
    ),
    re.compile(rf"^\s*(?:那|那么)?(?:{PARTY_ROLE_ZH})呢[？?]?\s*$"),
)
"""A follow-up naming only another role ("And the licensor?", "受让方呢？"): a party question only after one."""
_QUESTION_END = re.compile(r"(?<=[?？])\s*")


def question_parts(question: str) -> list[str]:
    """The questions of a text, split after each question mark (a follow-up joined to the one before)."""
    return [p for p in _QUESTION_END.split(question.strip()) if p.strip()]


def asks_party_identity(question: str) -> bool:
    """Whether the question only asks who a party is ("Who is the licensee?", "出租方是谁？"), also as a
    follow-up joined to such a question that names only another role ("Who is the licensee? And the
    licensor?", "转让方是谁？ 受让方呢？").

    Why: the parties are named in a contract's heading lines, which are of no clause type; typed,
    such a question was judged against clauses of that type: "Who is the licensee?" came out
    Covenant Not To Sue (0.57) and was refused as asking for a clause the documents lack, and
    "谁是被许可方？" License Grant (its 许可). Joined, "And the licensor?" was judged as no party question
    and quoted "2.2 Licensee shall not reverse engineer …" (browser try-out); alone, "乙方呢？" after a
    question on liability asks about the liability, so a bare role follow-up never counts on its own."""
    parts = question_parts(question)
    if len(parts) < 2:
        return any(rx.search(question) for rx in _PARTY_IDENTITY)
    asks = [any(rx.search(p) for rx in _PARTY_IDENTITY) for p in parts]
    follows = [any(rx.search(p) for rx in _ROLE_FOLLOW_UP) for p in parts]
    return asks[0] and all(a or f for a, f in zip(asks, follows, strict=True))


_GENERIC_ROLES = frozenset(
    {"party", "parties", "signatory", "signatories", "当事人", "双方", "各方", "签约方"}
)
"""Role words that name no one party: "Who are the parties?" asks for all of them."""
_ROLE_EN = re.compile(rf"\b(?:{PARTY_ROLES_EN})\b", re.I)
_ROLE_ZH = re.compile(PARTY_ROLE_ZH)


def role_words(text: str) -> list[str]:
    """The party-role words of a text, English lower-cased, Chinese as written."""
    return [m.group().lower() for m in _ROLE_EN.finditer(text)] + [m.group() for m in _ROLE_ZH.finditer(text)]


def asked_roles(question: str) -> tuple[str, ...]:
    """The roles a question asking who a party is names ("房东" of "房东是谁？"); none for one asking who
    the parties are, or for any other question.

    Why: "房东是谁？" over a lease and an employment contract quoted "劳动者（乙方）：王某" first — both
    lines name a party, only one names the landlord (``relevance.party_labels``)."""
    if not asks_party_identity(question):
        return ()
    for part in reversed(question_parts(question)):  # a joined follow-up asks its own role
        roles = tuple(dict.fromkeys(r for r in role_words(part) if r not in _GENERIC_ROLES))
        if roles:
            return roles
    return ()


def is_generic_role(word: str) -> bool:
    """A role word that names no one party ("parties", "双方")."""
    return word in _GENERIC_ROLES


def names_other_topic(question: str) -> bool:
    """Whether the question uses the words of a topic that is no CUAD category (``OTHER_TOPICS``)."""
    return bool(topics_named(question))


LICENSE_FAMILY: frozenset[str] = frozenset({"Exclusivity", "Anti-Assignment"})
"""Types that ask about the licence itself ("Is the license exclusive?"): License Grant stays beside them."""

QUALIFIER_TYPES: dict[str, frozenset[str]] = {
    "Post-Termination Services": frozenset(),
    "License Grant": LICENSE_FAMILY,
}
"""Types whose words can be a mere qualifier of a question about something else, dropped when the
question also names a type outside the set given (or a topic): a time ("How long does the
confidentiality obligation last after termination?" asks about confidentiality, not
post-termination services) or the document ("The licence caps liability at USD 1,000,000, right?"
asks about the cap, not the licence grant: typed License Grant, it was answered by quoting 2.1)."""


QUESTION_TRIGGERS: dict[str, tuple[str, ...]] = {
    "Exclusivity": (
        r"\bsell\w*\s+(?:[\w-]+\s+){0,4}?directly\b",
        r"\b(?:sell|appoint)\w*\s+(?:[\w-]+\s+){0,4}?(?:another|other|second|additional)\s+(?:[\w-]+\s+)?"
        r"(?:distributors?|customers?|buyers?|resellers?|dealers?|agents?|licensees?|franchisees?|suppliers?)\b",
        r"(?:直接|另行|另外|其他|第二).{0,8}(?:销售|经销|代理|指定|授权)",
    ),
}
"""Words that type a *question* but not a clause (``trigger_matrix`` reads only the entries' own words).

Why (try-out, session 32): "Can the supplier sell directly to customers in the territory?" named no
thesaurus word, the classifier guessed Revenue/Profit Sharing (0.52), and the question was refused
beside "Supplier shall not … sell the Products directly to customers in the Territory". Whether a party
may sell directly or appoint another seller is what an exclusivity clause settles; but "directly",
"another" and 直接 are everyday words of every clause, so they stay out of the clause side, and a
question about where a party may sell ("What is the territory?") asks no clause type: a non-exclusive
agreement would be refused for lacking an exclusivity clause."""

_QUESTION_COMPILED: dict[str, tuple[re.Pattern[str], ...]] = {
    name: tuple(re.compile(t) for t in triggers) for name, triggers in QUESTION_TRIGGERS.items()
}


CONDITION_CLAUSE = re.compile(
    r"\b(?:if|unless|upon(?!\s+(?:the\s+)?(?:terminat|expir))|in\s+(?:the\s+)?(?:event|case)(?:\s+that)?|suppos(?:e|ing)|assuming|whenever|(?<=\w\s)when"
    r"|(?<=\w\s)where|(?:on|at)\s+(?:the\s+|each\s+|any\s+)?renewal)\b[^,;?，；？]*"
    r"|(?:如果|假如|假设|倘若|万一|要是|一旦|若(?!干)|续(?:约|期|签)时)[^,;?，；？]*",
    re.I,
)
"""A condition inside a question ("… if the company terminates without cause", "如果乙方逾期交付，…"): up to the
next comma or the question mark. "When"/"where" opening a question ask a time or place, not a condition. "On
renewal" / "续约时" is the time a question asks about (session 45 try-out: "Can the provider raise the fees on
renewal?" was typed Renewal Term, and the clause "Provider may increase the fees on renewal by no more than five
percent" judged not the asked type, evidence 0.13)."""


def without_conditions(question: str) -> str:
    """The question without its conditions: what it asks about."""
    return CONDITION_CLAUSE.sub(" ", question)


def _types_named(low: str) -> list[str]:
    """The categories whose thesaurus words occur in a lower-cased text, in table order."""
    return [
        c.name
        for c, patterns in _COMPILED
        if any(p.search(low) for p in (*patterns, *_QUESTION_COMPILED.get(c.name, ())))
    ]


def typed_by_condition(question: str) -> bool:
    """The question's thesaurus words name a type only inside its conditions: it asks about what follows
    from them, so the clause classifier's guess (which reads the whole question) types it no more."""
    low = question.lower()
    return bool(_types_named(low)) and not _types_named(without_conditions(low))


def thesaurus_types(question: str) -> list[str]:
    """The categories whose thesaurus words occur in the question outside its conditions, in table
    order; a broader type is dropped when its narrower type matched too, and a qualifier type
    (``QUALIFIER_TYPES``) when the question also names another type or a topic (``OTHER_TOPICS``).

    Why outside conditions (session 36 try-out): "What severance is paid if the company terminates without
    cause?" and "What happens if …" were typed Termination For Convenience by their condition; the clause
    that answers them states a consequence ("If the Company terminates the employment without Cause, it shall
    pay the Employee severance equal to three (3) months' base salary"), which the classifier does not read
    as that type (26 %): judged "not the asked type", evidence 0.07, and the notice clauses were quoted."""
    low = question.lower()
    found = _types_named(low)
    if found:
        asked = _types_named(without_conditions(low))
        found = [n for n in found if n in asked]
    broader = {NARROWER[n] for n in found if n in NARROWER}
    found = [n for n in found if n not in broader]
    topic = names_other_topic(question)
    others = [n for n in found if n not in QUALIFIER_TYPES]
    return [
        n
        for n in found
        if n not in QUALIFIER_TYPES or not (topic or any(o not in QUALIFIER_TYPES[n] for o in others))
    ]

"""Cues of the learned injection detector that carry across attack families: who a sentence
addresses, what it asks done to the answer or the conversation, and whether it reads as a party's
obligation instead.

Why these, and not more wording: a family the fit never saw shares little vocabulary with the
families it did see, but it is still a sentence addressed to the system that reads the passage
(the assistant, "you", the one who answers), asking something of the answer, the citations, the
conversation or the reader's own rules. An honest clause addresses nobody and binds a party
("Licensee shall…", "乙方应…"). Each cue is a class of words, defined without reference to any one
attack family, and the crosses pair cues a linear model cannot pair itself (an imperative is
common in operating manuals; an imperative about the answer is not).

Strings and regular expressions only, plus one function; the weights are learned.
"""

from __future__ import annotations

import re

# The conversation's and the retrieval's own objects: the answer, the citations and sources, the
# user and the question, the knowledge base, the chat, the prompt. Contracts hold "answer" and
# "questions" (arbitration, support desks), so those bare words are not here; "your answer", "the
# user's question", "cite only" are.
_CONVERSATION = re.compile(
    r"(?<![A-Za-z])(?:cit(?:e|es|ed|ing|ations?)|sources?|knowledge\s+base|retrieved|search\s+results?|"
    r"(?:this|the)\s+(?:conversation|chat|session)|chat\s+history|prompts?|disclaimers?|"
    r"the\s+user(?:'s)?|the\s+reader(?:'s)?|the\s+person\s+asking|"
    r"(?:your|the|every|each|any)\s+(?:answers?|repl(?:y|ies)|responses?|output|first\s+line|next\s+answer)|"
    r"first\s+line|in\s+(?:json|markdown|capital\s+letters|a\s+table|verse))(?![A-Za-z])"
    r"|引用|来源|出处|知识库|检索|对话|聊天|会话|提示词|免责声明|提问|作答|答案|第一句|"
    r"你的(?:回答|回复|答复|输出)|回答中|回答时|回答里|答复时|转述|改写为|改成",
    re.IGNORECASE,
)

# The reader's own rules and limits, which an attack asks it to set aside or pretend away.
_READER_RULES = re.compile(
    r"\b(?:your|any|all|every|the|its|no)\s+(?:own\s+)?(?:rules|restrictions?|guidelines|limits|limitations|"
    r"filters|programming|safety\s+\w+|constraints|policies|instructions)\b"
    r"|(?:你的|任何|所有|全部|一切|原来的|原有的|之前的|以上的?)(?:规则|限制|约束|设定|指令|要求|说明)",
    re.IGNORECASE,
)

# The sentence speaking of itself or of the text as a thing to handle: "this sentence", "this note",
# "本句", "这段话". Contracts say "this Agreement", "this Section": not here.
_SELF_REFERENCE = re.compile(
    r"\b(?:this|the\s+present|the\s+following)\s+(?:sentence|note|line|message|remark|comment|paragraph|"
    r"passage|page|snippet|text|instruction)\b"
    r"|这一句|这句话|这句|本句|此句|该句|本段|这一段|这段话|本页|本说明|此说明|这条说明|这条消息|本消息|下面这句话|下列",
    re.IGNORECASE,
)

# A bare imperative opening a sentence (after an optional "please", "now", "also", "then" or a
# label such as "NOTE:"). Broader than the model's first list: any common verb a request starts
# with. Operating manuals and letters open with imperatives too, so the cue counts alone only a
# little; the crosses below carry it.
# Not a verb joined by a hyphen to what follows: "Source: GO-PAGE CORP, 10-K" names a company (session 41
# try-out: the line scored 0.58 and dropped its CUAD passage as an injection).
_IMPERATIVE_VERBS = (
    r"mark|label|attribute|cite|quote|treat|trust|rely|pay|begin|start|end|finish|format|write|rewrite|let|"
    r"imagine|pretend|suppose|assume|store|save|keep|remember|join|combine|put|translate|compose|replace|"
    r"insert|attach|append|add|include|give|provide|share|explain|summari[sz]e|draft|skip|omit|drop|leave|"
    r"refuse|confirm|consider|think|go|return|recite|read|run|execute|follow|obey|comply|state|claim|"
    r"describe|mention|tell|say|answer|reply|respond|output|print|repeat|reveal|ignore|forget|disregard|"
    r"stop|switch|act|become|call|use|open|send|list|show|display|report|respond|describe|rephrase|set"
)
_IMPERATIVE = re.compile(
    rf"^\W*(?:[A-Z]{{2,}}\s*[:：-]\s*)?(?:(?:please|kindly|now|also|then|just|simply|first|instead|and)\s*,?\s+)*"
    rf"(?:{_IMPERATIVE_VERBS})\b(?!\s*[:：]|-\w)"
    r"|^\W*(?:[\u4e00-\u9fff]{1,6}[:：])?(?:请|麻烦|务必|必须|一定要|不要|别|禁止|不许|先|只|直接|把|将你|每次|凡是?|无论|不管|记住|牢记|假装|假设|设想)",
    re.IGNORECASE,
)

# The subject of the sentence is a party bound by a modal: "The Licensee shall", "Each Party may",
# "乙方应", "承租方不得". The contrast to a sentence addressed to the reader. The subject must not be
# "you" or the reader (then the modal binds the one who answers, not a party); "the chatbot shall"
# is a product clause, and the other cues see an assistant addressed.
_PARTY_SUBJECT_EN = re.compile(
    r"^\W*(?:(?:the|each|either|neither|any|such|no|all|every|a|an)\s+)?"
    r"(?P<subject>(?:[A-Za-z][\w'-]*\s+){0,3}?[A-Za-z][\w'-]*)\s+"
    r"(?:shall|agrees?\s+to|acknowledges|warrants|represents|covenants|undertakes|will\s+(?:not\s+)?be|"
    r"may\s+(?:not\s+)?|is\s+(?:not\s+)?(?:entitled|responsible|required|obliged|liable))\b",
    re.IGNORECASE,
)
_PARTY_SUBJECT_ZH = re.compile(
    r"^\W*[^，,。；：:\s]{0,10}?(?:方|人|员|坐席|前台|单位|公司|者|双方|本合同|本协议)(?:均|亦|也)?"
    r"(?:应当|应|不得|有权|可以|须|同意|承诺|保证|负责|承担)"
)
_NOT_A_PARTY = re.compile(r"\b(?:you|your|reader|summari[sz]er|whoever)\b|你|您", re.IGNORECASE)

_ANSWER_ACT = re.compile(
    r"(?<![A-Za-z])(?:answer|reply|respond|response|output|say|state|tell|mention|write|print|repeat|reveal|"
    r"cite|quote|summari[sz]e|report)[A-Za-z]*"
    r"|回答|回复|答复|输出|告诉|透露|显示|作答|答案|引用|说明|写明|写成|提到|表示|复述",
    re.IGNORECASE,
)
_ADDRESSEE = re.compile(
    r"(?<![A-Za-z])(?:you|your|yourself|assistant|ai|chatbot|bot|language\s+model|llm|gpt|the\s+model)(?![A-Za-z])"
    r"|你|您|助手|人工智能|模型|机器人|ＡＩ",
    re.IGNORECASE,
)
_ASKED = re.compile(
    r"\b(?:when(?:ever)?|if|once)\s+(?:you\s+are\s+|anyone\s+|someone\s+|somebody\s+|people\s+|the\s+user\s+|"
    r"a\s+user\s+|they\s+)?ask(?:ed|s)?\b|\bwhatever\b[^.!?]{0,30}\bask|\bno\s+matter\s+what\b|\bany\s+question\b"
    r"|被问|问到|问及|有人问|无论[^。！？]{0,12}问|不管[^。！？]{0,12}问|任何[^。！？]{0,8}问题|每次(?:作答|回答)",
    re.IGNORECASE,
)

# Whoever reads, condenses or answers from the text, named in the third person: "anyone summarising
# this", "whoever asks", "提问的人". A clause names its parties instead.
_READER = re.compile(
    r"\b(?:anyone|anybody|whoever|somebody|someone|the\s+(?:reader|person\s+asking|questioner|summari[sz]er)|"
    r"readers|users?)\b|任何人|读者|提问的人|提问者|问的人|用户|凡[^。！？]{0,8}的人|对外",
    re.IGNORECASE,
)

CUES: tuple[str, ...] = (
    "conversation_objects",
    "reader_rules",
    "self_reference",
    "imperative_broad",
    "party_subject",
    "imperative_x_answer",
    "addressee_x_conversation",
    "asked_x_answer",
    "addressee_x_rules",
    "self_x_act",
    "reader_x_act",
)
"""Names of ``cue_features``' values, in order."""


def party_subject(sentence: str) -> bool:
    """Whether the sentence opens with a party bound by a modal ("Licensee shall", "乙方应")."""
    m = _PARTY_SUBJECT_EN.match(sentence)
    if m and not _NOT_A_PARTY.search(m.group("subject")):
        return True
    m_zh = _PARTY_SUBJECT_ZH.match(sentence)
    return m_zh is not None and not _NOT_A_PARTY.search(m_zh.group(0))


def cue_features(sentence: str) -> list[float]:
    """The ``CUES`` of one (normalised) sentence, in order; each 0 or 1."""
    conv = bool(_CONVERSATION.search(sentence))
    rules = bool(_READER_RULES.search(sentence))
    self_ref = bool(_SELF_REFERENCE.search(sentence))
    # A reader's request for what the contract says ("Summarise the Supplier's duties") is a question
    # put as an imperative, not a command to the one answering.
    imperative = bool(_IMPERATIVE.search(sentence)) and not info_request(sentence)
    party = party_subject(sentence)
    act = bool(_ANSWER_ACT.search(sentence))
    addressee = bool(_ADDRESSEE.search(sentence))
    return [
        float(conv),
        float(rules),
        float(self_ref),
        float(imperative),
        float(party),
        float(imperative and (act or conv) and not party),
        float(addressee and conv),
        float(bool(_ASKED.search(sentence)) and act),
        float(addressee and rules),
        float(self_ref and (act or imperative or conv)),
        float(bool(_READER.search(sentence)) and act and not party),
    ]


# --- who is asked, and what is being read ------------------------------------------------------
#
# Why: honest look-alikes ask something of a *party* ("Buyer may request that Seller explain",
# "If the Customer asks …, the Supplier shall …", "乙方应答复"), speak of an AI product as the
# object of the deal ("the chatbot shall …, supplied by the Company"), or hold a record or a form
# (Q:/A:, blanks). Attacks ask something of the *reader* of the text, about this text as it is
# being read now, its answer or its later turns. Every class below is written from that contrast,
# in both languages, and reads the one sentence it is given, nothing around it.

# Defined roles of a contract, as contracts capitalise them (case matters: "the user" of a chat is
# not "the User" of a licence), plus the Chinese party names.
_ROLE_EN = (
    r"(?:Supplier|Customer|Client|Licensee|Licensor|Buyer|Seller|Purchaser|Vendor|Provider|Contractor|"
    r"Subcontractor|Consultant|Distributor|Reseller|Manufacturer|Company|Employer|Employee|Executive|Tenant|"
    r"Landlord|Lessee|Lessor|Borrower|Lender|Guarantor|Recipient|Discloser|Disclosing\s+Party|Receiving\s+Party|"
    r"Part(?:y|ies)|Processor|Controller|Franchisee|Franchisor|Owner|Member|Subscriber|Operator|User|"
    r"Respondent|Claimant|Tribunal|Arbitrator|Bank|Agent|Partner|Investor|Issuer|Purchaser|Developer|Publisher)"
)
_ROLE_ZH = (
    r"(?:甲方|乙方|丙方|丁方|买方|卖方|供方|需方|出租方|承租方|出租人|承租人|许可方|被许可方|委托方|受托方|转让方|"
    r"受让方|披露方|接收方|借款人|贷款人|保证人|发包人|承包人|用人单位|劳动者|员工|供应商|经销商|服务商|服务提供方|"
    r"客户|用户|平台|本公司|公司|双方|各方|任何一方|一方|当事人|申请人|被申请人|仲裁庭|买受人|出卖人|开发方|运营方)"
)
_MODAL_EN = (
    r"(?:shall|may|must|will|should|can(?:not)?|agrees?|acknowledges?|undertakes?|warrants?|represents?|"
    r"ask(?:s|ed)?|request(?:s|ed)?|answered|replied|agreed|confirmed|is\s+(?:entitled|required|responsible|obliged)|"
    r"are\s+(?:entitled|required|responsible))"
)
_ROLE_AGENT_EN = re.compile(
    rf"\b{_ROLE_EN}(?:'s|s')?(?:\s+[a-z][\w-]*){{0,2}}\s+(?:also\s+|not\s+|promptly\s+|immediately\s+)?{_MODAL_EN}\b"
)
_ROLE_AGENT_ZH = re.compile(
    rf"{_ROLE_ZH}(?:均|亦|也|还|即)?(?:应当|应|须|必须|不得|有权|可以|可|负责|承担|同意|承诺|保证|要求|询问|请求|理解|确认|知悉|认可)"
    # the role as the agent after the modal: "应由甲方统一答复" (session 41 try-out: scored 0.90, read as a rule
    # about replies to the reader, though 甲方 is the one who replies)
    rf"|(?:应当|应|须|必须|可以|可|均)由{_ROLE_ZH}"
)
# A role right after a verb of telling is the one told, not the one who acts ("告诉用户必须…").
_TOLD_BEFORE = re.compile(
    r"(?:告诉|告知|提示|通知|让|叫|请|要求|向|对|劝)\s*$|\b(?:tell|ask|remind|inform|instruct)\s+(?:the\s+)?$",
    re.IGNORECASE,
)

_REQUEST_ACT = re.compile(
    r"(?<![A-Za-z])(?:explain|answer|reply|respond|tell|inform|notify|report|describe|provide|confirm|"
    r"disclose|reveal|state|submit|return|file)[A-Za-z]*"
    r"|说明|答复|回复|回答|告知|通知|报告|提供|确认|披露|提交|作出|陈述|解释",
    re.IGNORECASE,
)

_AI_NOUN = re.compile(
    r"(?<![A-Za-z])(?:AI|artificial\s+intelligence|chatbot|virtual\s+assistant|assistant|language\s+models?|"
    r"models?|LLM|machine\s+learning)(?![A-Za-z])|人工智能|智能客服|智能助手|大模型|模型|机器人",
    re.IGNORECASE,
)
# A party named beside the AI, other than the chat's own "user" (用户 is also whom an attack tells).
_ROLE_MENTION = re.compile(rf"\b{_ROLE_EN}\b|{_ROLE_ZH}")
_CHAT_USER = re.compile(r"\b[Uu]sers?\b|用户")
_SECOND_PERSON = re.compile(r"(?<![A-Za-z])(?:you|your|yourself)(?![A-Za-z])|你|您", re.IGNORECASE)

# The reader addressed head-on at the opening: "Assistant, …", "Dear model", "To the AI reading
# this:", "助手，", "致阅读本文的AI：".
_VOCATIVE = re.compile(
    r"^\W*(?:(?:dear|hello|hi|hey|attention|to|for|note\s+to)\s+)?(?:the\s+|any\s+|whichever\s+|you,?\s+the\s+)?"
    r"(?:ai|assistant|chatbot|bot|model|language\s+model|llm|system|summari[sz]er|reader|tool|program)\b"
    r"[^,:;.!?，：；。]{0,50}[,:，：-]"
    r"|^\W*(?:致|给|亲爱的|尊敬的)?[^，：,:。]{0,14}(?:助手|AI|模型|机器人|程序|系统|你)[^，：,:。]{0,4}[，：,:]",
    re.IGNORECASE,
)

# This text as a thing being read, summarised or answered from now ("when summarising this",
# "anyone reading this page", "回答时", "总结本文件时"); contracts speak of performing the deal.
_READING_NOW = re.compile(
    r"\b(?:when(?:ever)?|while|before|after|in)\s+(?:you\s+)?(?:are\s+)?(?:summari[sz]\w*|read\w*|process\w*|"
    r"analy[sz]\w*|answer\w*|explain\w*|quot\w*|describ\w*|discuss\w*|condens\w*|translat\w*)\b"
    r"|\b(?:summari[sz]\w*|read\w*|process\w*|analy[sz]\w*|condens\w*)\s+(?:of\s+)?(?:this|the\s+present)\s+"
    r"(?:document|text|file|page|contract|agreement|clause|passage|section)\b"
    r"|\b(?:this|the\s+present)\s+(?:document|text|file|page|contract)\s+comes\s+up\b"
    r"|(?:回答|作答|答复|总结|概括|摘要|转述|复述|解释|介绍|阅读)[^，。；,;:：]{0,8}?(?:时|的时候|之时|过程中)"
    r"|(?:处理|分析|提及|谈到|涉及)(?:本|这份|此|上述)(?:文|文件|文本|页|段|内容)(?:时|的时候|之时|过程中)"
    r"|(?:阅读|处理|总结|概括|分析|检索)(?:本|这份|此)(?:文|文件|文本|页|段|合同|协议)",
    re.IGNORECASE,
)

# A form to fill in: blanks, bracketed placeholders, boxes to tick.
_FORM_BLANK = re.compile(
    r"_{3,}|\[\s*(?:insert|enter|name|date|address|amount)\b|【[^】]{0,6}(?:填写|插入|填入)|[□☐]"
    r"|\b(?:tick|check|mark)\s+(?:the|each|one|a)\s+(?:box|option)|\b(?:fill\s+in|complete)\s+(?:all\s+|each\s+)?"
    r"(?:the\s+)?(?:fields?|blanks?|form|boxes|columns?)\b|\bcolumn\s+[A-Z]\b"
    r"|填写|填入|打“?√|栏(?:填写|由)",
    re.IGNORECASE,
)

# A request for what the contract says, with nothing dictated: "Summarise the Supplier's
# obligations", "请介绍合同的解除条款". An attack asking for a summary says what it must say.
_INFO_REQUEST = re.compile(
    r"^\W*(?:please\s+|kindly\s+|could\s+you\s+|can\s+you\s+|would\s+you\s+)?(?:tell\s+me|explain|summari[sz]e|"
    r"list|describe|outline|clarify|set\s+out|show\s+me|give\s+me|walk\s+me\s+through|compare|identify)\b"
    r"|^\W*(?:请|麻烦)?(?:你)?(?:介绍|总结|概括|解释|说明|列出|告诉我|讲讲|说说|梳理|比较|找出)",
    re.IGNORECASE,
)
_QUESTION = re.compile(
    r"[?？]\s*$|^\W*(?:what|which|who|whom|whose|when|where|why|how|can|could|may|must|does|do|is|are|will|"
    r"should)\b|吗[?？。]?\s*$|呢[?？。]?\s*$|^\W*(?:什么|如何|怎么|怎样|谁|哪|能否|是否|可否|多少|多久)",
    re.IGNORECASE,
)
_CONTRACT_MATTER = re.compile(
    r"\b(?:terms?|obligations?|clauses?|sections?|schedules?|conditions?|provisions?|rights|fees?|payments?|"
    r"price|deposit|liabilit\w+|warrant\w+|indemn\w+|renewal|termination|lease|licen[cs]e|agreement|contract)\b"
    r"|条款|义务|权利|约定|节点|期限|价款|费用|违约|责任|押金|租金|条件|合同|协议",
    re.IGNORECASE,
)
_DICTATED = re.compile(
    r"\b(?:that|as\s+(?:if|though|saying|stating|reading|being)|only|instead|always|every|from\s+now)\b"
    r"|[:：\"“”「」]|https?://|@|(?<![A-Za-z])(?:say|state|write|reply|answer)(?![A-Za-z])"
    r"|为准|一律|只|说成|写成|回答为|表述|表示|改为|每次",
    re.IGNORECASE,
)

# An act outside the answer: running a tool or function ("call send_email(…)", '{"tool": …}', "use
# your browsing tool", "调用…函数"), or sending, opening or moving something to an address, a link or
# an account ("send the chat to x@y", "访问 http://…", "转账到账户…"). An answer is text; a sentence
# asking the reader to act on the world is not about the contract, unless a party is the one acting.
_TOOL_CALL = re.compile(
    r"\b[a-z][a-z0-9]*_[a-z0-9_]+\s*\(|\b[a-z]+\([a-z_]+\s*=|\{\s*\"(?:tool|function|name|action|cmd)\"\s*:"
    r"|\b(?:call|invoke|run|execute|trigger|use|launch)\s+(?:the\s+|your\s+|a\s+|an\s+|this\s+|its\s+)?"
    r"(?:[\w-]+\s+){0,2}(?:tool|function|plugin|plug-in|api|command|script|browser|action|endpoint|webhook|"
    r"extension|agent)s?\b|\b(?:tool|function)\s+call"
    r"|调用|(?:执行|运行|触发|启动)[^，。,]{0,8}(?:函数|工具|插件|脚本|命令|接口)|(?:使用|用)[^，。,]{0,6}(?:工具|插件|浏览器)",
    re.IGNORECASE,
)
_OUTSIDE_VERB = re.compile(
    r"(?<![A-Za-z])(?:send|e-?mail|forward|post|upload|download|fetch|open|visit|load|browse|transfer|wire|"
    r"submit|paste|embed|render|ping|click)(?:s|ed|ing)?(?![A-Za-z])"
    r"|发送|发到|发给|转发|上传|下载|打开|访问|加载|转账|汇款|提交到|嵌入|点击",
    re.IGNORECASE,
)
_OUTSIDE_TARGET = re.compile(
    r"https?://|www\.|[\w.+-]+@[\w-]+\.|\baccount\b|\bendpoint\b|\bserver\b|账户|账号|服务器|链接|网址|邮箱",
    re.IGNORECASE,
)

# A claimed correction of what the text says ("Erratum:", "the figure above is a typo", "勘误",
# "系笔误"): with an answer or a reader in the same sentence it rewrites what is answered.
_CORRECTION = re.compile(
    r"\b(?:errat(?:um|a)|corrigend(?:um|a)|corrections?|typos?|misprints?|clerical\s+errors?|out\s+of\s+date|"
    r"outdated|(?:has|have)\s+been\s+(?:corrected|amended|updated|revised|replaced)|(?:official|latest)\s+"
    r"(?:update|version|revision)|should\s+(?:now\s+)?read|actually\s+(?:says|reads|is))\b"
    r"|勘误|更正|笔误|订正|已过时|已失效|系误|有误|实际(?:应|上)为|正确的?(?:金额|数字|表述|说法)",
    re.IGNORECASE,
)

# A condition on a later turn of the conversation: "if the person asking writes …", "once somebody
# asks for …", "after the third question", "from then on", "一旦用户提到…就…", "从第三个问题开始".
_LATER_TURN = re.compile(
    r"\b(?:if|when(?:ever)?|once|should|as\s+soon\s+as|after|each\s+time|every\s+time|the\s+moment)\b[^.;]{0,60}"
    r"\b(?:asks?|asked|mentions?|writes?|types?|brings?\s+up|comes?\s+up|raises?|questions?|turns?|messages?|"
    r"conversation|chat)\b"
    r"|\bfrom\s+(?:then|now|that\s+point)\s+on\b|\b(?:all|every|each)\s+(?:later|future|subsequent|following|next)\s+"
    r"(?:answers?|replies|responses|questions|turns|users?)\b"
    r"|(?:如果|若|一旦|只要|每当|当|凡是?)[^。；;]{0,24}(?:问|提到|提及|要求|使用|说|输入|写)[^。；;]{0,24}(?:就|则|便|都|一律)"
    r"|(?:之后|以后|此后|从此|今后)[^。]{0,8}(?:一律|都|每次|每个回答)|从[^。]{0,14}开始[^。]{0,12}(?:每|都|一律)",
    re.IGNORECASE,
)

WHO_CUES: tuple[str, ...] = (
    "role_agent",
    "role_asked",
    "vocative_reader",
    "ai_as_product",
    "reading_now",
    "form_blank",
    "info_request",
    "outside_action",
    "correction_x_reader",
    "later_turn_x_answer",
)
"""Names of ``who_features``' values, in order."""


def role_agent(sentence: str) -> bool:
    """Whether a contract role acts in the sentence: "Buyer may request", "the Customer's staff
    shall", "乙方应" — anywhere in it, unless the role is the one told ("告诉用户必须")."""
    for pattern in (_ROLE_AGENT_EN, _ROLE_AGENT_ZH):
        for m in pattern.finditer(sentence):
            if not _TOLD_BEFORE.search(sentence[max(0, m.start() - 12) : m.start()]):
                return True
    return False


def outside_action(sentence: str) -> bool:
    """Whether the sentence asks for a tool run, or for something sent, opened or moved to an address
    (the act alone: ``who_features`` pairs it with the reader being the one asked)."""
    if _TOOL_CALL.search(sentence):
        return True
    return bool(_OUTSIDE_VERB.search(sentence) and _OUTSIDE_TARGET.search(sentence))


def ai_as_product(sentence: str) -> bool:
    """An AI named in the third person beside a party of the deal, nobody addressed: a clause about
    an AI product ("Customer acknowledges that the virtual assistant…", "智能客服应依据甲方资料…")."""
    if not _AI_NOUN.search(sentence) or _VOCATIVE.search(sentence) or _SECOND_PERSON.search(sentence):
        return False
    return any(not _CHAT_USER.fullmatch(m.group(0)) for m in _ROLE_MENTION.finditer(sentence))


def info_request(sentence: str) -> bool:
    """A request or a question for what the contract says about its own matter, nothing dictated:
    what a reader asks ("Explain the renewal terms", "Who pays the freight?", "押金能退吗？")."""
    return bool(
        (_INFO_REQUEST.search(sentence) or _QUESTION.search(sentence))
        and _CONTRACT_MATTER.search(sentence)
        and not _DICTATED.search(sentence)
        and not _READER_RULES.search(sentence)
        and not _READING_NOW.search(sentence)
    )


def who_features(sentence: str) -> list[float]:
    """The ``WHO_CUES`` of one (normalised) sentence, in order; each 0 or 1."""
    role = role_agent(sentence)
    act = bool(_ANSWER_ACT.search(sentence))
    reader = bool(_READER.search(sentence) or _ADDRESSEE.search(sentence) or _CONVERSATION.search(sentence))
    asked = reader or bool(_IMPERATIVE.search(sentence))
    return [
        float(role),
        float(role and bool(_REQUEST_ACT.search(sentence))),
        float(bool(_VOCATIVE.search(sentence))),
        float(ai_as_product(sentence)),
        float(bool(_READING_NOW.search(sentence))),
        float(bool(_FORM_BLANK.search(sentence))),
        float(info_request(sentence)),
        float(outside_action(sentence) and asked and not role),
        float(bool(_CORRECTION.search(sentence)) and (act or reader)),
        float(bool(_LATER_TURN.search(sentence)) and (act or reader) and not role),
    ]

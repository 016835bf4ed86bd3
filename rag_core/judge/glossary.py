"""A bilingual contract glossary: which English words and Chinese terms translate each other.

Why (issue 10): a knowledge base often holds Chinese and English contracts side by side, and a
lawyer asks in either language. The judge's lexical features (coverage of the question's terms in
the passage and in its best sentence) compared words only, so an English question about a Chinese
lease ("What is the monthly rent?") covered 0 of its terms in "月租金为人民币6800元" and a Chinese
question about an English licence covered none in the fee clause; on held-out CUAD contracts the
Chinese phrasings were answered far less often than the English ones. With this glossary a question
term also counts as present when the passage holds one of its translations.

The entries are general contract-drafting vocabulary (what an English-Chinese legal dictionary
gives), written for the project, not read off any benchmark's questions or answers. Each group is a
set of English words (matched after ``relevance`` stemming) and Chinese terms (two characters or
more) that name the same thing; a word may sit in several groups.
"""

from __future__ import annotations

import re
from functools import lru_cache

GROUPS: tuple[tuple[tuple[str, ...], tuple[str, ...]], ...] = (
    # --- parties and documents ---
    (("tenant", "lessee"), ("承租人", "承租方", "房客", "租客", "租户")),
    (("landlord", "lessor"), ("出租人", "出租方", "房东")),
    (("buyer", "purchaser"), ("买方", "买受人", "采购方")),
    (("seller", "vendor"), ("卖方", "出卖人", "销售方")),
    (("supplier", "provider"), ("供应商", "供方", "提供方")),
    (("supplier",), ("供货方",)),  # not with "provider", a SaaS agreement's party: 供货协议 was scoped to it
    (("supply",), ("供货", "供应")),  # 供货协议 is a supply agreement
    (("attorney", "lawyer", "counsel"), ("律师", "律师费")),
    (("customer", "client"), ("客户", "委托方")),
    (
        ("consult", "consultant", "consulting", "consultancy", "advisory", "adviser", "advisor"),
        ("咨询", "顾问"),
    ),
    (("recipient",), ("接收方", "接收人", "收受方")),
    (("discloser",), ("披露方",)),
    (("licensee",), ("被许可方", "被许可人")),
    (("licensor",), ("许可方", "许可人")),
    (("employer",), ("用人单位", "雇主", "单位", "老板")),
    (("employee", "staff", "worker"), ("员工", "劳动者", "雇员", "职工")),
    (("contractor",), ("承包方", "承包人", "承揽人")),
    # the two parties apart, like licensor and licensee: "特许人可以在什么情况下解除合同？" quoted "6.2 Franchisee may
    # terminate …" before "6.1 Franchisor may terminate …" (session 42 try-out)
    (("franchise",), ("特许", "特许经营", "加盟")),
    (("franchisor",), ("特许人", "特许方", "授权方")),
    (("franchisee",), ("被特许人", "被特许方", "加盟商", "加盟方", "受许人")),
    (("brand",), ("品牌",)),
    (("fund",), ("基金",)),
    (("borrower",), ("借款人", "借款方")),
    (("lender",), ("贷款人", "出借人", "贷款方")),
    (("guarantor",), ("保证人", "担保人", "保证", "担保")),  # the guarantor is named in the 保证/担保 clause
    (("shareholder", "stockholder"), ("股东",)),
    # the parties of a data processing agreement (session 35: "数据泄露后处理方应在多长时间内通知？" quoted a SaaS provider's
    # breach notice, not the Processor's)
    (("processor",), ("处理方", "处理者", "受托处理方")),
    (("sub-processor", "sub-processors"), ("分包处理方", "次级处理方", "再委托处理方")),
    (("registration", "registered"), ("注册", "登记", "注册号")),
    (("director", "directors"), ("董事",)),
    # a shareholders' agreement's terms (session 35: "股东协议的锁定期是多久？" found no word of the English agreement's
    # "4. Lock-Up" and was refused; 董事会由几名董事组成 and 创始人的竞业限制 read "board" and "founder" nowhere)
    (("board",), ("董事会",)),
    (("founder", "founders"), ("创始人",)),
    (("investor", "investors"), ("投资人", "投资方", "投资者")),
    (("lock-up", "lockup"), ("锁定期", "限售期")),
    (("quorum",), ("法定人数",)),
    (("deadlock", "deadlocked"), ("僵局",)),
    (("pre-emption", "preemption", "pre-emptive"), ("优先购买权", "优先认购权")),
    (("drag-along",), ("领售权", "拖售权")),
    (("tag-along", "co-sale"), ("随售权", "共同出售权")),
    (("dividend", "dividends"), ("股息", "分红", "红利")),
    (("affiliate", "subsidiary"), ("关联方", "关联公司", "子公司")),
    (("third", "third-party"), ("第三方", "第三人")),
    (("party", "parties"), ("双方", "一方", "当事人")),
    (("agreement", "contract"), ("合同", "协议")),
    (("lease", "tenancy", "rental"), ("租赁",)),
    (("premises", "property", "apartment", "house", "flat"), ("房屋", "房产", "租赁物", "物业", "房子")),
    (("company", "corporation"), ("公司",)),
    (("agent", "representative"), ("代理人", "代表")),
    # --- money ---
    (("rent",), ("租金", "房租")),
    (("deposit",), ("押金", "保证金", "定金")),
    (("price", "consideration"), ("价款", "价格", "对价", "单价")),
    (
        ("fee", "fees", "charge"),
        ("费用", "服务费", "许可费", "使用费", "加盟费", "年费", "订阅费", "经费", "手续费"),
    ),
    # a term's start (session 45: "When does the lease term start?" met no word of "自起租日起计算")
    (("start", "begin"), ("开始", "起始", "起算", "起租")),
    # a subscription (a SaaS term, or shares subscribed) and a price increase (session 43: "SaaS协议的订阅费是多少？" and
    # "订阅期限多长？" found no word of "annual subscription fee", "提供方可以在续约时涨价吗？" none of "increase the fees")
    (("subscription", "subscribe", "subscriber"), ("订阅", "订购", "认购")),
    (("increase", "raise"), ("上调", "上涨", "涨价", "调价", "提价", "提高")),
    # a sum in all and a financing (session 45: "What is the total rent under the finance lease?" found neither word
    # of the finance lease's "租金总额为人民币3,960,000元" and was refused, evidence 0.48)
    (("total",), ("总额", "总计", "合计", "总金额")),
    (("finance", "financing"), ("融资",)),
    (("user",), ("用户", "使用者")),
    (("credit", "credits"), ("抵扣", "抵减", "抵用")),  # a service credit (服务抵扣)
    (("payment", "pay", "paid", "payable"), ("支付", "付款", "缴纳", "交纳")),
    (("invoice", "bill"), ("发票", "账单")),
    (("issue", "issued"), ("开具", "出具", "签发")),
    (("interest",), ("利息", "利率")),
    (("loan",), ("借款", "贷款")),
    (("principal",), ("本金",)),
    (
        ("prepayment", "prepay", "upfront"),
        ("预付款", "预付", "首付款", "提前还款", "提前偿还"),
    ),  # not "advance": "payable in advance" is no 预付款; a loan's prepayment is 提前还款
    (("early",), ("提前",)),
    (("travel",), ("差旅", "旅费")),
    (("reimburse", "reimbursement"), ("报销",)),
    (("instalment", "installment", "tranche"), ("分期", "期款", "几期")),
    (("progress",), ("进度", "进度款")),
    (
        ("salary", "wage", "compensation", "remuneration"),
        ("工资", "薪酬", "报酬", "薪资", "薪水", "工钱", "年薪", "月薪"),
    ),
    (("bonus",), ("奖金",)),
    (("severance",), ("经济补偿金", "经济补偿", "遣散费")),
    (("royalty",), ("版税", "特许权使用费", "提成")),
    (("initial",), ("初始", "首期", "首次")),
    (("revenue", "profit"), ("收入", "收益", "利润")),
    (("tax",), ("税费", "税款", "税金")),
    (("cost", "expense"), ("成本", "费用", "开支")),
    (("refund", "return", "repay"), ("退还", "返还", "退款", "偿还", "退回", "退钱", "归还", "还款")),
    (("late", "overdue", "delay"), ("逾期", "迟延", "延迟", "拖欠", "拖延", "延误")),
    (("penalty", "liquidated"), ("违约金", "罚金", "滞纳金")),
    (
        ("damages", "compensate", "indemnify", "indemnification", "indemnity"),
        ("赔偿", "补偿", "赔钱", "赔付"),
    ),
    (("amount", "sum"), ("金额", "数额", "款项")),
    (("usd", "dollar", "dollars"), ("美元",)),
    (("rmb", "yuan", "renminbi", "cny"), ("人民币",)),
    (("monthly", "month"), ("每月", "月租", "个月")),
    (
        ("annual", "yearly", "year"),
        ("每年", "年度", "年费"),
    ),  # 年费 is an annual fee (session 38: "SaaS 协议的年费是多少？")
    (("quarter", "quarterly"), ("季度", "每季")),
    # --- time ---
    (("term", "duration", "period"), ("期限", "期间", "租期", "有效期")),
    (("expire", "expiration", "expiry"), ("到期", "届满", "期满")),
    (("renew", "renewal", "extend", "extension"), ("续约", "续签", "续期", "延期", "续租")),
    (("effective", "commence", "commencement"), ("生效", "起始", "开始")),
    (("notice", "notify", "notification"), ("通知", "告知")),
    (("days", "day"), ("日内", "天内", "工作日")),
    (("deadline", "within"), ("期限内", "以内", "之内")),
    (("date",), ("日期",)),
    (("january",), ("一月",)),
    (("february",), ("二月",)),
    (("march",), ("三月",)),
    (("april",), ("四月",)),
    (("june",), ("六月",)),
    (("july",), ("七月",)),
    (("august",), ("八月",)),
    (("september",), ("九月",)),
    (("october",), ("十月",)),
    (("november",), ("十一月",)),
    (("december",), ("十二月",)),
    # --- ending and breach ---
    (
        ("terminate", "termination", "cancel", "rescind", "resign", "resignation"),
        ("终止", "解除", "撤销", "退租", "辞职", "辞退", "开除", "离职"),
    ),
    (("breach", "default", "violate", "violation"), ("违约", "违反", "毁约")),
    (("liability", "liable", "responsible", "responsibility"), ("责任",)),
    (("cap", "limit", "limitation", "maximum", "exceed"), ("上限", "限额", "最高", "超过")),
    (("minimum",), ("最低", "至少")),
    (("force", "majeure"), ("不可抗力",)),
    (("survive", "survival", "continue"), ("继续有效", "存续", "持续")),
    # --- rights and duties ---
    (("assign", "assignment", "transfer"), ("转让", "让与")),
    # English leases write "underlet"
    (("sublet", "sublease", "sub-let", "underlet", "underletting"), ("转租",)),
    (("subcontract", "delegate"), ("分包", "转包", "委托")),
    (("consent", "approval", "approve", "permission"), ("同意", "批准", "许可")),
    (("written", "writing"), ("书面",)),
    (("right", "entitled"), ("权利", "有权")),
    (("obligation", "duty", "shall", "must"), ("义务", "应当", "必须")),
    (("prohibit", "forbid", "may not"), ("不得", "禁止")),
    (("repair", "maintenance", "maintain"), ("维修", "维护", "修缮", "保养", "修理", "修复")),
    (("damage", "loss"), ("损坏", "损失", "损害", "毁损", "灭失", "亏损")),
    (("risk",), ("风险",)),
    (("exclusion", "exclude", "exception", "except"), ("例外", "除外", "不包括", "排除")),
    (("deliver", "delivery", "shipment"), ("交付", "交货", "送达", "发货", "交房")),
    (("deliverable", "deliverables"), ("交付成果", "工作成果", "成果")),
    (("inspect", "inspection", "acceptance"), ("检验", "验收", "检查")),
    (("quality", "defect", "defective"), ("质量", "瑕疵", "缺陷")),
    (
        ("fail", "failure", "nonconforming", "non-conformity", "reject", "rejection"),
        ("不合格", "不符合", "拒收"),
    ),
    # a warranty of goods is 质保/保修; a bare 保证 is also a surety's guarantee ("保证期间为借款期限届满之日起两年" is no
    # warranty period: "Is the warranty period 24 months?" had been corrected with it, session 30)
    (("warranty", "warrant"), ("保修", "质保", "质量保证")),
    (("guarantee", "guaranty", "surety"), ("保证", "担保")),
    (("represent", "representation"), ("陈述", "声明")),
    (("insurance", "insure", "insured"), ("保险", "投保", "社保")),
    (("audit", "books", "records"), ("审计", "账簿", "查账", "记录")),
    (("confidential", "confidentiality", "non-disclosure", "secret"), ("保密", "机密", "商业秘密")),
    (("disclose", "disclosure"), ("披露", "泄露")),
    (("intellectual", "ip"), ("知识产权",)),
    (("patent",), ("专利",)),
    (("copyright",), ("著作权", "版权")),
    (("trademark",), ("商标",)),
    (("ownership", "own", "owner", "title"), ("所有权", "归属", "所有人")),
    (("license", "licence", "licensed", "grant"), ("许可", "授权")),
    (("exclusive", "exclusivity", "sole"), ("独家", "排他", "唯一")),
    (("compete", "competition", "non-compete", "competitive"), ("竞业", "竞争", "同业竞争")),
    (("solicit", "non-solicit", "hire", "recruit"), ("招揽", "挖角", "聘用", "雇佣")),
    (("restrict", "restriction", "restrictive"), ("限制",)),
    (("control", "merger", "acquisition"), ("控制权", "合并", "收购", "并购")),
    (("software", "system"), ("软件", "系统")),
    # a technical services contract and a SaaS agreement's service levels (session 38: "What is the warranty period under
    # the technical service contract?" did not route to 技术服务合同; "SaaS 协议的服务可用性承诺是多少？" found no word of
    # "available 99.8% of the time" and was refused)
    (("technical", "technology", "tech"), ("技术",)),
    (("availability", "available", "uptime"), ("可用性", "可用率", "可用", "正常运行时间")),
    # "organised" and "arranged" stem apart from "organise" and "arrange"
    (("organise", "organize", "organised", "arrange", "arranged"), ("组织", "安排")),
    # a fault and the response to it (session 38: "How quickly must the service provider respond to a fault?" found
    # no word of "在接到故障通知后四小时内响应"); not "failure", which is mostly a failure to pay or perform
    (("fault", "malfunction", "outage", "breakdown"), ("故障",)),
    (("respond", "response"), ("响应", "答复", "回复")),
    (("development", "develop", "developed", "developer"), ("开发", "研发")),
    (("research",), ("研究", "研发")),  # 研究开发经费 is the research and development fee (session 43)
    # the area a right covers, not any 区域 ("What is the territory?" matched a property contract's 公共区域 and quoted
    # its fee table, session 44)
    (
        ("territory", "territories"),
        (
            "销售区域",
            "经销区域",
            "独家区域",
            "授权区域",
            "经营区域",
            "约定区域",
            "指定区域",
            "区域范围",
            "地域",
            "销售地区",
        ),
    ),
    (("country", "countries"), ("国家",)),
    (("distribution", "distributor", "distributors", "distribute"), ("经销", "分销", "经销商")),
    # profits and assets are distributed (分配) among partners or members: "How often are profits distributed?"
    # over a 合伙协议 whose 4.1 says 每年分配一次 (session 35); the stem "distribut" alone, so 分配 is no sibling of 经销
    (("distributed", "distributing"), ("分配",)),
    (("component", "components", "module", "modules"), ("组件", "部件", "模块")),
    (("adjust", "adjustment", "revise", "revision"), ("调整", "调价", "修订")),
    # session 39 try-out on my own English commercial lease, Chinese property and engagement contracts: "租金多久复核一次？"
    # found no word of "The rent shall be reviewed on the fifth anniversary", "How much is the property management fee
    # per square metre?" none of "每平方米每月2.30元", "Who are the lawyers handling the case?" none of "承办本案"
    (("review", "reviewed"), ("复核", "审核", "评审")),
    (("square", "sqm"), ("平方米", "平米")),
    (("handle", "handling"), ("承办", "办理")),
    # a system going live (session 38: "What is the penalty if the system goes live late?" found no word of 逾期上线)
    (("live", "launch", "go-live"), ("上线",)),
    (("source", "code"), ("源代码",)),
    # escrow apart from source code: "资产收购协议的托管期限是多久？" read 托管 as source code too
    (("escrow",), ("托管", "共管")),
    (("service", "services", "support"), ("服务", "支持")),
    (("goods", "products", "product"), ("货物", "产品", "商品")),
    # a lessee's purchase of the leased asset (session 45: "Can the lessee buy the equipment at the end of the lease?")
    (("buy", "purchase", "procure", "procurement"), ("采购", "购买", "购置", "进货", "收购", "留购")),
    (("asset", "assets"), ("资产",)),
    # carriage of goods and partnerships (session 34 try-out: a Chinese transport contract and partnership
    # agreement asked about in English)
    (("freight", "carriage"), ("运费", "运输费", "运杂费")),
    (("carrier",), ("承运人", "承运方")),
    (("transport", "transportation", "shipping", "logistics"), ("运输", "货运", "物流")),
    (("shipper", "consignor"), ("托运人", "托运方")),
    (("consignee",), ("收货人",)),
    (("partnership", "partner", "partners"), ("合伙", "合伙人", "合伙企业")),
    (("withdraw", "withdrawal"), ("退伙", "退出")),
    (("manage", "management", "managing"), ("管理", "执行事务", "经营管理")),
    # a building's owners and their committee (session 44: "Can the owners' committee terminate the property management
    # contract early?" found neither word in a 物业服务合同 whose 甲方 is the 业主委员会)
    (("owner", "owners", "homeowner", "homeowners"), ("业主",)),
    (("committee",), ("委员会", "业委会")),
    # a shop as premises ("Is the fee for shops 2 yuan per square metre?" found no row of a 物业 fee table: 商铺 | 3.50)
    (("shop", "shops", "outlet", "outlets"), ("商铺", "门店", "店铺", "商店", "铺面")),
    (("transit",), ("运输时限", "在途")),
    (("financial", "statements"), ("财务报表", "财务报告", "财务")),
    (("indebtedness", "debt", "debts", "borrow", "borrowing"), ("债务", "负债", "举债", "借款")),
    (("scope",), ("范围", "经营范围")),
    (("external", "externally"), ("对外",)),
    (("unanimous", "unanimously"), ("一致同意",)),
    (("objection", "object"), ("异议",)),
    (("declared",), ("保价", "声明价值")),
    (("purpose",), ("用途", "目的")),
    (("commercial",), ("商业", "商用")),
    (("ingredient", "ingredients", "seasoning"), ("原料", "原材料", "调味料", "食材", "配料")),
    (("use", "usage"), ("使用", "用途")),
    (("install", "installation"), ("安装",)),
    # a building is not its construction: a lease's 建筑面积 (floor area) made it "use" the 工程 of "工程款怎么支付？",
    # and the lease's late-rent clause was quoted beside a construction contract's payment table (session 42)
    (("construction", "construct"), ("施工", "建设", "工程")),
    (("building",), ("建筑", "楼宇", "大楼")),
    (("roof", "roofing"), ("屋面", "屋顶")),
    (("waterproof", "waterproofing"), ("防水",)),
    (("completion", "complete", "completed"), ("竣工", "完工", "完成", "工期")),
    (("retention", "retainage"), ("质量保证金", "保留金")),
    (("equipment", "device", "machinery", "workstation"), ("设备", "工作站", "机器", "机械")),
    (("data", "information", "personal"), ("数据", "信息", "个人信息")),
    # --- disputes and law ---
    (("dispute", "disputes", "controversy"), ("争议", "纠纷", "争执")),
    (("arbitration", "arbitrate", "arbitrator"), ("仲裁",)),
    (("court", "courts", "litigation", "sue", "lawsuit"), ("法院", "诉讼", "起诉", "打官司", "法庭")),
    (("law", "laws", "governing", "governed", "applicable"), ("法律", "适用", "准据法")),
    (("jurisdiction", "venue"), ("管辖",)),
    (("address", "location", "located"), ("地址", "所在地", "住所", "位于")),
    (("sign", "signature", "execute", "execution"), ("签署", "签订", "签字", "盖章")),
    (("amend", "amendment", "modify", "modification"), ("修改", "变更", "补充")),
    (("employment", "labor", "labour"), ("劳动", "雇佣", "聘用")),
    (("probation", "probationary"), ("试用期",)),
    (("overtime",), ("加班",)),
    (("remote", "remotely"), ("远程办公", "居家办公", "远程")),
    # 带薪假 (session 41: "员工每年有多少天带薪假？" met no word of "25 working days' paid holiday" and was refused)
    (("vacation", "holiday"), ("休假", "年假", "假期", "年休假", "带薪假", "带薪休假", "带薪年假")),
    (("sick",), ("病假",)),
    (("maternity",), ("产假",)),
    # not "share": as a verb ("Can the Recipient share Confidential Information with its advisers?") it named
    # the share-transfer agreement, whose 股权 scoped the NDA out (session 30 try-out)
    (("shares", "equity", "stock"), ("股权", "股份", "股票")),
    # session 40 try-out (an English employment agreement, a Chinese loan contract and share-transfer agreement, asked
    # across languages): "员工每周工作多少小时？" met no word of "Normal working hours are 37.5 hours per week";
    # "What happens if the borrower misuses the loan?" none of 挪用; "Who is the buyer of the shares?" none of the
    # 受让方 line; "How much of the target company is being transferred?" none of 目标公司
    (("week", "weekly"), ("每周", "星期")),
    (("hour", "hours"), ("小时", "工时")),
    (("working",), ("工作",)),
    (("misuse", "misappropriate", "misappropriation", "divert", "diversion"), ("挪用", "挪作他用")),
    (("transferee", "assignee", "buyer", "purchaser"), ("受让方", "受让人")),
    (("transferor", "assignor", "seller", "vendor"), ("转让方", "转让人")),
    (("target",), ("目标公司", "标的公司")),
    (("position", "job"), ("职位", "岗位", "职务")),
    (("allowance",), ("津贴", "补贴")),
    (("pension",), ("养老金", "养老保险")),
)


def stem(word: str) -> str:
    """The judge's light stemming of an English word (``relevance.stem``), lower-cased."""
    from rag_core.judge.relevance import stem as relevance_stem

    return relevance_stem(word.lower())


def inflections(word: str) -> tuple[str, ...]:
    """The word and its regular inflections (plural or third person, past, "-ing"), whose stems a question's
    word may have.

    Why: the judge's stemming is light, so "misuses" stems to "misus" while "misuse" stays whole, and the
    glossary is looked up by exact stem: "What happens if the borrower misuses the loan?" found no 挪用 in
    "乙方挪用借款…的，甲方有权提前收回全部借款" (session 40)."""
    if not word.isalpha():
        return (word,)
    base = word[:-1] if word.endswith("e") else word
    plural = word + ("es" if word.endswith(("s", "x", "z", "ch", "sh")) else "s")
    return (word, plural, base + "ed", base + "ing")


@lru_cache(maxsize=1)
def _index() -> tuple[dict[str, tuple[str, ...]], dict[str, tuple[str, ...]]]:
    """English stem → Chinese terms, and Chinese term → English stems, over every group."""
    en_to_zh: dict[str, list[str]] = {}
    zh_to_en: dict[str, list[str]] = {}
    # an inflection's stem that a group lists itself stays that group's ("distributed" → 分配, not 经销)
    listed = {stem(w) for english, _ in GROUPS for w in english if " " not in w}
    for english, chinese in GROUPS:
        words = [w for w in english if " " not in w]
        inflected = (stem(f) for w in words for f in inflections(w)[1:])
        stems = list(dict.fromkeys([*(stem(w) for w in words), *(t for t in inflected if t not in listed)]))
        for s in stems:
            en_to_zh.setdefault(s, []).extend(chinese)
        for c in chinese:
            zh_to_en.setdefault(c, []).extend(stems)
    return (
        {k: tuple(dict.fromkeys(v)) for k, v in en_to_zh.items()},
        {k: tuple(dict.fromkeys(v)) for k, v in zh_to_en.items()},
    )


@lru_cache(maxsize=1)
def zh_compounds() -> re.Pattern[str]:
    """The Chinese glossary words of two or more characters, longest first, as one pattern: the
    words jieba may cut apart (``relevance.rejoined``; 年假 into 年 / 假, 锁定期 into 锁定 / 期是)."""
    _, zh_to_en = _index()
    words = sorted((w for w in zh_to_en if len(w) >= 2), key=lambda w: (-len(w), w))
    return re.compile("|".join(re.escape(w) for w in words))


@lru_cache(maxsize=16384)
def translations(term: str) -> tuple[str, ...]:
    """The other language's words for one question term (a stemmed English word or a Chinese jieba
    word): Chinese terms for an English stem, English stems for a Chinese term. A Chinese term also
    takes the translations of the glossary terms it contains ("月租金" holds "租金"), since jieba's
    search mode keeps compounds whole — unless it is a glossary word itself: "加盟费" is a fee, and
    taking "franchise" from its 加盟 too made it match every clause of a franchise agreement, so the
    fee clause weighed no more than the training clause for "初始加盟费是多少？" (session 42 try-out)."""
    en_to_zh, zh_to_en = _index()
    if not term or term.isascii():
        return en_to_zh.get(term, ())
    if term in zh_to_en:
        return zh_to_en[term]
    out: list[str] = []
    for zh in inner_terms(term):
        out.extend(zh_to_en[zh])
    return tuple(dict.fromkeys(out))


@lru_cache(maxsize=4096)
def inner_terms(term: str) -> tuple[str, ...]:
    """The Chinese glossary words inside a longer Chinese word ("月租金" holds "租金"); none for an
    English word or one of two characters (jieba's shortest words hold no other glossary word)."""
    if term.isascii() or len(term) <= 2:
        return ()
    _, zh_to_en = _index()
    return tuple(zh for zh in zh_to_en if zh != term and zh in term)


def direct_translations(term: str) -> tuple[str, ...]:
    """The other language's words for a term that is itself a glossary word (no compound expansion:
    "月租金" is no glossary word, so it gets none, where ``translations`` gives it "month" from 月租)."""
    en_to_zh, zh_to_en = _index()
    return en_to_zh.get(term, ()) if term.isascii() else zh_to_en.get(term, ())


@lru_cache(maxsize=16384)
def siblings(term: str) -> tuple[str, ...]:
    """The term's own-language synonyms in the glossary: the words its direct translations translate
    back to ("租期" → term → "期限", "有效期").

    Why: "租期从什么时候开始？" scoped the lease out — it writes 租赁期限, not 租期, while the English
    licence "used" 租期 through its translation "term"; a word the document writes with a synonym is
    a word it uses."""
    return tuple(
        dict.fromkeys(s for t in direct_translations(term) for s in direct_translations(t) if s != term)
    )


PREFIX_MIN: int = 4
"""Shared prefix length from which an English word meets a glossary word of another stemmer
("invoic" from the support check's tokens meets "invoice")."""


def _meets(a: str, b: str) -> bool:
    """Two English word forms are one word: one starts with the other, sharing ``PREFIX_MIN`` letters."""
    short, long_ = sorted((a, b), key=len)
    return len(short) >= PREFIX_MIN and long_.startswith(short)


@lru_cache(maxsize=16384)
def word_translations(word: str) -> tuple[str, ...]:
    """``translations`` of a word from any tokenizer: an English word is looked up by shared prefix
    (the support check stems differently from the judge), a Chinese word as it is."""
    if not word.isascii():
        return translations(word)
    en_to_zh, _ = _index()
    out: list[str] = []
    for key, chinese in en_to_zh.items():
        if key == word or _meets(key, word):
            out.extend(chinese)
    return tuple(dict.fromkeys(out))


def translated_in(word: str, evidence_words: set[str], evidence_text: str) -> bool:
    """Whether one of the word's translations is in the evidence (a Chinese term as a substring of
    the text, an English stem by shared prefix with one of its words)."""
    for t in word_translations(word):
        if not t.isascii():
            if t in evidence_text:
                return True
        elif any(_meets(t, w) for w in evidence_words if w.isascii()):
            return True
    return False

"""Chinese contract clauses of known type, written for the tests (not evaluation data).

Six contracts as a Chinese user would upload them: a lease, a sale, a loan, an employment
contract, a share transfer and an NDA. Each clause is tagged with its CUAD clause type when it has
one (``None``: a clause type CUAD does not name, such as rent or deposit).
"""

from __future__ import annotations

CONTRACTS: dict[str, list[tuple[str | None, str]]] = {
    "lease": [
        (None, "第三条 租金。乙方每月向甲方支付租金人民币9500元，于每月5日前支付至甲方指定账户。"),
        (
            None,
            "第四条 押金。乙方应于签约时向甲方支付押金人民币19000元，租赁期满且乙方无违约的，甲方应在10日内无息退还。",
        ),
        (
            "Expiration Date",
            "第二条 租赁期限。租赁期限为两年，自2024年3月1日起至2026年2月28日止，期满后本合同自行终止。",
        ),
        (
            "Anti-Assignment",
            "第七条 转租。未经甲方书面同意，乙方不得将房屋全部或部分转租、转借给第三方，亦不得转让本合同项下的权利。",
        ),
        (
            "Governing Law",
            "第十条 法律适用及争议解决。本合同适用中华人民共和国法律。因本合同发生的争议，由房屋所在地人民法院管辖。",
        ),
    ],
    "sale": [
        (None, "第二条 价款。本合同货物总价款为人民币八十万元，买方应在收到货物后三十日内付清。"),
        (
            "Warranty Duration",
            "第五条 质量保证。卖方保证货物质量符合国家标准，质量保证期为自交付之日起十二个月，保证期内出现质量问题由卖方免费维修或更换。",
        ),
        (
            "Liquidated Damages",
            "第八条 违约责任。卖方逾期交货的，每逾期一日应按合同总价款的千分之五向买方支付违约金。",
        ),
    ],
    "loan": [
        (None, "第一条 借款金额与利率。出借人向借款人提供借款人民币五十万元，年利率为百分之六，按月付息。"),
        (
            "Expiration Date",
            "第二条 借款期限。借款期限为一年，自2025年1月1日起至2025年12月31日止，借款人应于到期日一次性归还本金。",
        ),
        (None, "第四条 担保。借款人以其名下位于上海市的房产为本借款提供抵押担保。"),
    ],
    "employment": [
        (None, "第三条 劳动报酬。用人单位每月支付劳动者工资人民币一万五千元，于次月十日前发放。"),
        (None, "第二条 试用期。本合同试用期为三个月，试用期工资不低于转正工资的百分之八十。"),
        (
            "Non-Compete",
            "第九条 竞业限制。劳动者离职后两年内，不得到与本单位生产或者经营同类产品、从事同类业务的有竞争关系的其他用人单位任职，也不得自己开业生产或者经营同类产品；用人单位在竞业限制期限内按月给予劳动者经济补偿。",
        ),
    ],
    "share_transfer": [
        (None, "第二条 转让价款。转让方将其持有的目标公司百分之三十的股权以人民币六百万元转让给受让方。"),
        (None, "第四条 变更登记。转让方应在收到全部价款后十五个工作日内协助办理工商变更登记手续。"),
        ("Governing Law", "第九条 适用法律。本协议的订立、效力、解释和履行均适用中华人民共和国法律。"),
    ],
    "nda": [
        (
            None,
            "第一条 保密信息。本协议所称保密信息，是指披露方以任何形式向接收方提供的技术信息、经营信息及其他商业秘密。",
        ),
        (None, "第三条 保密期限。接收方的保密义务自本协议签订之日起持续五年，不因合作终止而解除。"),
        (
            "Liquidated Damages",
            "第五条 违约责任。接收方违反本协议泄露保密信息的，应向披露方支付违约金人民币五十万元，并赔偿由此造成的全部损失。",
        ),
    ],
}

# (contract, question, asked clause type, whether the contract has a clause of that type)
QUESTIONS: list[tuple[str, str, str, bool]] = [
    ("lease", "这份租赁合同约定的竞业限制期限是多久？", "Non-Compete", False),
    ("share_transfer", "股权转让协议里有竞业限制吗？", "Non-Compete", False),
    ("nda", "保密协议有竞业限制条款吗？", "Non-Compete", False),
    ("employment", "劳动合同的竞业限制期限是多久？", "Non-Compete", True),
    ("lease", "本合同适用哪里的法律？", "Governing Law", True),
    ("share_transfer", "本协议适用哪国法律？", "Governing Law", True),
    ("loan", "借款合同适用哪里的法律？", "Governing Law", False),
    ("sale", "货物的质量保证期是多久？", "Warranty Duration", True),
    ("loan", "借款合同的保修期是多久？", "Warranty Duration", False),
    ("nda", "违反保密协议要支付多少违约金？", "Liquidated Damages", True),
    ("sale", "卖方逾期交货的违约金怎么计算？", "Liquidated Damages", True),
    ("employment", "劳动合同约定的违约金是多少？", "Liquidated Damages", False),
    ("lease", "乙方可以把房屋转租给别人吗？", "Anti-Assignment", True),
    ("lease", "租赁合同什么时候到期？", "Expiration Date", True),
    ("loan", "借款什么时候到期？", "Expiration Date", True),
]

# (contract, question about a clause type, the clause of that type *without* the asked fact): relevant,
# not evidence. A question naming no clause type ("押金是多少？") is not here: which clause is "the asked
# one" is then undefined, and the judge only checks the kind of value at passage level.
WITHOUT_FACT: list[tuple[str, str, str]] = [
    (
        "employment",
        "劳动合同的竞业限制期限是多久？",
        "第九条 竞业限制。劳动者离职后不得到与本单位有竞争关系的其他用人单位任职，也不得自己开业经营同类产品。",
    ),
    (
        "sale",
        "货物的质量保证期是多久？",
        "第五条 质量保证。卖方保证货物质量符合国家标准，保证期内出现质量问题由卖方免费维修或更换。",
    ),
    (
        "loan",
        "借款什么时候到期？",
        "第二条 借款期限。借款人应于借款到期时一次性归还本金，逾期归还的按约定计收罚息。",
    ),
    (
        "nda",
        "违反保密协议要支付多少违约金？",
        "第五条 违约责任。接收方违反本协议泄露保密信息的，应向披露方支付违约金，并赔偿由此造成的全部损失。",
    ),
]

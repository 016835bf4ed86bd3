"""The bilingual glossary: a question term counts as present when the passage holds its translation."""

from __future__ import annotations

from rag_core.judge.fitted import score
from rag_core.judge.glossary import GROUPS, inner_terms, stem, translations, word_translations
from rag_core.judge.relevance import coverage_scores, lexical_features

LEASE = [
    "第三条 租金及支付方式 月租金为人民币6800元。租金按季度支付，乙方应于每季度首月的10日前将当季租金转入甲方指定账户。",
    "第五条 维修责任 房屋及其附属设施的自然损坏由甲方负责维修；因乙方使用不当造成的损坏，由乙方负责修复或赔偿。",
    "第八条 争议解决 因本合同引起的争议，双方应协商解决；协商不成的，任何一方可向房屋所在地人民法院提起诉讼。",
]
LICENCE = [
    "2. FEES. Licensee shall pay an annual license fee of USD 84,000, invoiced each January and payable within "
    "thirty (30) days of the invoice date.",
    "6. CONFIDENTIALITY. Each party shall keep the other party's confidential information secret during the term "
    "and for five (5) years after its termination.",
    "8. GOVERNING LAW. This Agreement is governed by the laws of the State of New York.",
]


def test_translations_go_both_ways() -> None:
    assert "租金" in translations("rent")
    assert "rent" in translations("租金")
    assert "rent" in translations("月租金")  # a compound takes the terms it contains
    assert "转租" in translations("sublet")
    assert translations("zebra") == ()


def test_the_verb_share_is_no_shareholding_and_new_groups_translate() -> None:
    """Session 30 try-out: "Can the Recipient share Confidential Information …" took "share" for 股权, and
    document scope held the question to the share-transfer agreement."""
    assert "股权" not in translations("share") and "股权" in translations("equity")
    assert "consult" in translations("咨询") and "咨询" in translations("consultant")
    assert "本金" in translations("principal") and "exclusion" in translations("例外")
    # a warranty of goods is not a surety's 保证 ("保证期间为借款期限届满之日起两年" had answered "Is the warranty
    # period 24 months?"), and equipment is 设备 (no word had named the equipment sale contract)
    assert "保证" not in translations("warranty") and "保证" in translations("guarantee")
    assert "质保" in translations("warranty") and "设备" in translations("equipment")
    assert (
        "预付款" in translations("prepayment")
        and not translations("advance")
        and "差旅" in translations("travel")
    )


def test_session_31_groups_translate() -> None:
    """Session 31 try-out (construction, franchise, employment contracts): "How much is the franchise fee?"
    quoted a SaaS fee for want of 加盟费, and the delay damages of a construction contract were missed."""

    def zh(word: str) -> tuple[str, ...]:
        return translations(stem(word))

    assert "加盟" in zh("franchise") and "加盟费" in zh("fee")
    assert "竣工" in zh("completion") and "工期" in zh("completion")
    assert "施工" in zh("construction") and "延误" in zh("delay")
    assert "质量保证金" in zh("retention") and "年休假" in zh("holiday")
    assert "采购" in zh("purchase") and "调味料" in zh("ingredients")
    assert "采购" not in zh("source")  # "source code" is no purchase


def test_session_32_groups_translate() -> None:
    """Try-out (session 32): "What is the total price of the software development contract?" never reached
    the 技术开发合同 (no word translated "development"), and quoted a software licence's liability cap."""
    assert "开发" in translations(stem("development")) and "development" in translations("开发")
    assert "销售区域" in translations(stem("territory"))  # not any 区域 (session 44: a property's 公共区域)
    # "供应商可以调整价格吗？" was refused beside "Supplier may revise [prices] once per Contract Year"; "Who owns
    # pre-existing components?" quoted an equipment sale's ownership clause, not 4.2's 通用组件
    assert "调整" in translations(stem("revise")) and "组件" in translations(stem("components"))
    assert "经销商" in translations(stem("distributor")) and "国家" in translations(stem("countries"))


def test_inner_terms_are_the_glossary_words_inside_a_compound() -> None:
    assert "租金" in inner_terms("月租金")
    assert inner_terms("租金") == () and inner_terms("rental") == ()


def test_chinese_entries_are_words_not_single_characters() -> None:
    """A one-character entry would match inside almost any Chinese clause."""
    assert all(len(zh) >= 2 for _, chinese in GROUPS for zh in chinese)


def _translated(question: str, texts: list[str]) -> list[float]:
    return [f.translated for f in lexical_features(question, texts)]


def test_an_english_question_covers_its_terms_in_a_chinese_clause() -> None:
    cov = _translated("What is the monthly rent under the lease?", LEASE)
    assert cov[0] > 0 and cov[0] > cov[1] and cov[0] > cov[2]
    f = lexical_features(
        "Can the tenant sublet the apartment?", ["未经甲方书面同意，承租人不得将房屋转租给第三人。"]
    )
    assert f[0].hits >= 2


def test_translated_matches_are_features_of_their_own() -> None:
    """Same-language coverage means what it did before the glossary (the fit had learned it), and
    matches found only through a translation are counted apart, so the fit weighs them alone."""
    cross = lexical_features("What is the monthly rent under the lease?", LEASE)[0]
    assert cross.coverage == 0.0 and cross.translated > 0 and cross.translated_best_sentence > 0
    assert coverage_scores("What is the monthly rent under the lease?", LEASE) == [0.0, 0.0, 0.0]
    same = lexical_features("租金是多少？", LEASE)[0]
    assert same.coverage > 0 and same.translated == 0.0


def test_a_chinese_question_covers_its_terms_in_an_english_clause() -> None:
    cov = _translated("许可费每年多少？", LICENCE)
    assert cov[0] > cov[1] and cov[0] > cov[2]
    cov = _translated("保密义务持续多久？", LICENCE)
    assert cov[1] > cov[0] and cov[1] > cov[2]


def test_the_fitted_judge_finds_the_answering_clause_across_languages() -> None:
    """The fitted weights were refitted with the glossary: the clause that answers ranks first in
    evidence whichever language the question is in."""
    for question, texts, answer in (
        ("What is the monthly rent under the lease?", LEASE, 0),
        ("Which court handles disputes under the lease?", LEASE, 2),
        ("许可费每年多少？", LICENCE, 0),
        ("保密义务在合同终止后持续多久？", LICENCE, 1),
    ):
        evi = [s.evidence for s in score(question, texts)]
        assert max(range(len(texts)), key=lambda i: evi[i]) == answer, (question, evi)


def test_a_survival_clause_speaks_of_continuing() -> None:
    """ "保密义务持续多久？" asked of "The obligations of this Section 5 continue … for five (5) years"
    matched only 义务: 持续 is how the clause's "continue" (its survival) reads in Chinese."""
    assert "continu" in translations("持续") or "continue" in translations("持续")
    lex = lexical_features(
        "保密义务持续多久？", ["The obligations of Section 5 continue for five (5) years."]
    )[0]
    assert lex.hits >= 2


def test_escrow_is_no_source_code() -> None:
    """Session 33: "资产收购协议的托管期限是多久？" read 托管 as "source" and "code" as well as escrow."""
    from rag_core.judge.glossary import translations

    assert set(translations("托管")) == {"escrow"}
    assert "托管" not in translations("source")


LOAN = [
    "1.1 Amount. The Lender agrees to make a term loan to the Borrower in the amount of USD 500,000.",
    "1.2 Purpose. The Borrower shall use the proceeds of the Loan solely to purchase manufacturing equipment.",
    "3.1 The Borrower shall repay the Loan in twelve equal monthly instalments.",
]


def test_what_a_thing_is_used_for_is_its_purpose() -> None:
    """Session 35: "used" is a stopword, so "What is the loan used for?" was a question of the word "loan" and
    every loan clause came out EVIDENCE at 0.93; the purpose clause must lead, and the Chinese 借款用途 clause
    must carry the question's terms too."""
    from rag_core.judge.relevance import terms

    assert stem("purpose") in terms("What is the loan used for?")
    evi = [s.evidence for s in score("What is the loan used for?", LOAN)]
    assert max(range(len(LOAN)), key=lambda i: evi[i]) == 1 and evi[1] - max(evi[0], evi[2]) > 0.1, evi
    zh = lexical_features("What is the loan used for?", ["第二条 借款用途 乙方借款用于个人经营周转。"])[0]
    assert zh.hits == 2


def test_profits_are_distributed_not_dealt_in() -> None:
    """Session 35: "How often are profits distributed?" found no word of its verb in the 合伙协议's 每年分配一次,
    and 分配 must not read as a distributor's 经销."""
    assert translations(stem("distributed")) == ("分配",)
    assert "分配" not in translations("distribution") and "经销" not in translations("分配")


def test_session_36_groups_translate() -> None:
    """Session 36 try-out (an English employment agreement, a Chinese construction contract): "员工的年薪是多少？"
    was refused beside "a base salary of USD 185,000 per year"; "How long is the roof waterproofing warranty?"
    quoted other contracts' 质保期 for want of 屋面防水."""
    assert "salary" in translations("年薪") and "severance" in translations("遣散费")
    assert "屋面" in translations(stem("roof")) and "防水" in translations(stem("waterproofing"))
    assert "远程办公" in translations(stem("remotely"))
    assert "进度款" in translations(stem("progress"))


def test_session_37_groups_translate() -> None:
    """Session 37 try-out (an English supply agreement beside a Chinese guarantee): "Does the guarantor's liability
    cover attorney fees?" found no word of its own in 保证范围's 律师费; "供货协议的单价是多少？" quoted two construction
    contracts' 固定单价 for want of 单价 → price, and routed nowhere for want of 供货 → supply. The stemmer had read
    "supply" as an adverb ("supp"), which meets "support"."""
    assert "律师费" in translations(stem("attorney")) and "price" in translations("单价")
    assert "supply" in translations("供货") and "provider" not in translations("供货")
    assert stem("supply") == "supply" and stem("supplies").startswith("suppl") and stem("monthly") == "month"
    assert "供货" not in word_translations("support") and "供货" in word_translations(stem("supply"))


def test_a_technical_service_contract_and_service_availability_translate() -> None:
    """Session 38 try-out: "What is the warranty period under the technical service contract?" did not route to
    技术服务合同, and "SaaS 协议的服务可用性承诺是多少？" found no word of "available 99.8% of the time"."""
    assert "技术" in translations("technical") and "technical" in translations("技术")
    assert "available" in translations("可用性") and "可用性" in translations("availability")
    assert all(
        "组织" in translations(stem(w))
        for w in ("organise", "organises", "organized", "arranging", "arrange")
    )
    assert {"annual", "fee"} <= set(translations("年费")) and "故障" in translations("fault")
    assert "响应" in translations(stem("respond")) and "故障" not in translations(stem("failure"))


def test_session_40_groups_translate() -> None:
    """Session 40 try-out (an English employment agreement beside a Chinese loan contract and share-transfer
    agreement): hours per week, misuse of the loan, the buyer of the shares and the target company met no word
    of the other language's clause."""
    hours = lexical_features(
        "员工每周工作多少小时？", ["4. Hours. Normal working hours are 37.5 hours per week."]
    )[0]
    assert hours.hits == 3  # 每周, 工作, 小时 (员工: no "employee" in the clause)
    misuse = lexical_features(
        "What happens if the borrower misuses the loan?",
        ["乙方挪用借款或连续两期未按期还款的，甲方有权提前收回全部借款。"],
    )[0]
    assert misuse.hits == 2  # misuses, loan ("happen" and "borrower": no 借款人 in the clause)
    assert "受让方" in translations("buyer") and "目标公司" in translations("target")
    assert "terminat" in translations("离职")


def test_a_glossary_word_translates_in_every_inflection() -> None:
    """Session 40: "misuses" stems to "misus" while the glossary's "misuse" stays whole, and "transferred" to
    "transferr"; the glossary is looked up by exact stem, so neither found its Chinese word."""
    assert "挪用" in translations(stem("misuses")) and "挪用" in translations(stem("misused"))
    assert "转让" in translations(stem("transferred")) and "转让" in translations(stem("transferring"))
    assert stem("staffed") == stem("staff") and stem("billed") == "bill" and stem("added") == "add"


def test_a_glossary_word_takes_its_own_translations_not_those_of_a_word_inside_it() -> None:
    """Session 42 try-out: "加盟费" (a fee) also took "franchise" from its 加盟, so it matched every clause of a
    franchise agreement and "初始加盟费是多少？" weighed the training clause like the fee clause. A word the glossary
    lacks still takes those of the glossary words inside it."""
    assert "fee" in translations("加盟费") and "franchise" not in translations("加盟费")
    assert "initial" in translations("初始")
    assert "rent" in translations("月租金")


def test_a_building_is_not_construction() -> None:
    """Session 42 try-out: a lease's 建筑面积 made it "use" the 工程 of "工程款怎么支付？" and kept it in scope beside the
    construction contract."""
    assert "construction" in translations("工程") and "building" not in translations("工程")
    assert "building" in translations("建筑") and "construction" not in translations("建筑")


def test_the_franchisor_and_the_franchisee_are_two_parties() -> None:
    """Session 42 try-out: "特许人可以在什么情况下解除合同？" quoted "6.2 Franchisee may terminate …" before "6.1 Franchisor
    may terminate …": one glossary group held both parties. 加盟商 is the franchisee, 品牌基金 a brand fund."""
    assert "特许人" in translations("franchisor") and "特许人" not in translations("franchise")
    assert "franchisor" not in translations("被特许人") and "franchisee" in translations("加盟商")
    assert {"brand", "fund"} <= set(translations("品牌基金"))


def test_a_territory_is_a_sales_area_not_any_area() -> None:
    """Session 44 try-out: "What is the territory?" found its word in a property contract's 公共区域 (a common area)
    through the translation 区域, and the quoted answer opened with that contract's fee table. A 销售区域 is still one."""
    q = "What is the territory?"
    common = lexical_features(q, ["乙方应保证电梯每日运行二十四小时，公共区域每日清扫两次。"])[0]
    sales = lexical_features(q, ["甲方授权乙方在华东销售区域内独家经销本产品。"])[0]
    assert common.hits == 0 and sales.hits == 1


def test_owners_and_their_committee_translate() -> None:
    """Session 44 try-out: "Can the owners' committee terminate the property management contract early?" found neither
    word in the property contract whose 甲方 is the 业主委员会."""
    assert "业主" in translations(stem("owners")) and "委员会" in translations(stem("committee"))
    assert "owner" in translations("业主")


def test_shops_translate_and_an_english_premise_meets_the_chinese_table_row() -> None:
    """Session 44: "Is the fee for shops 2 yuan per square metre?" over the fee table stayed under the conflict cut
    (0.21): with no word for 商铺 no row was the question's. Not "store", which is also what data is done to."""
    from rag_core.judge.conflict import conflict_score, premise_slots
    from rag_core.settings import Settings

    assert "商铺" in translations(stem("shops")) and "shop" in translations("商铺")
    assert "商铺" not in translations(stem("stored"))
    table = "物业类型 | 收费标准（元/平方米·月） | 备注\n多层住宅 | 1.20 | 含公共区域保洁\n商铺 | 3.50 | 不含垃圾清运"
    score, why = conflict_score(premise_slots("Is the fee for shops 2 yuan per square metre?"), table)
    assert score > Settings().verdict.t_conflict and "3.50" in str(why), why


def test_a_total_a_financing_a_raise_and_users_translate() -> None:
    """Session 45 try-out: "What is the total rent under the finance lease?" met no word of "租金总额" or "融资租赁" and was
    refused (evidence 0.48); "raise the fees" none of 上调/涨价."""
    assert "总额" in translations(stem("total")) and "total" in translations("总额")
    assert "融资" in translations(stem("finance")) and "finance" in translations("融资")
    assert "上调" in translations(stem("raise")) and stem("raise") in translations("提高")
    assert "用户" in translations(stem("users"))


def test_a_handling_fee_a_start_and_a_purchase_at_lease_end_translate() -> None:
    """Session 45 try-out over a Chinese finance lease: "What is the handling fee under the finance lease …?" met no word
    of "手续费" and quoted the maintenance clause; "When does the lease term start?" none of "自起租日起计算"; "Can the lessee
    buy the equipment at the end of the lease?" none of "留购"."""
    assert "手续费" in translations(stem("fee"))
    assert "起租" in translations(stem("start")) and "起算" in translations(stem("begin"))
    assert "留购" in translations(stem("buy"))

"""Model clauses per clause type: an offline stand-in for HyDE.

Why: e5-style embedders match a passage to a passage better than a question to a passage, and
HyDE gets that passage from an LLM (slow on a CPU, and a 1.5B model's clauses drifted off
topic). A lawyer's question about a standard clause type ("is there a non-compete?") has a
standard answer shape, so each thesaurus concept carries one short model clause in English and
one in Chinese, written from general drafting practice (not from any benchmark's text). The
clause of the question's concepts, in the question's language, is embedded and searched as one
more vector list in the fusion, inside the contract the question names (across a whole knowledge
base a contract-style clause pulled lay questions about statutes to the wrong articles).
"""

from __future__ import annotations

from rag_core.retrieval.lexicon import concepts_of
from rag_core.textproc import is_chinese

PROTOTYPES: dict[str, tuple[str, str]] = {
    "term": (
        "This Agreement shall commence on the Effective Date and continue in full force for an initial term of "
        "five (5) years, unless earlier terminated, and shall expire on the fifth anniversary of the Effective Date.",
        "本合同有效期自生效之日起至2025年12月31日止，共计五年；期限届满前双方未续签的，本合同自动终止。",
    ),
    "renewal": (
        "Upon expiration of the initial term, this Agreement shall automatically renew for successive one (1) year "
        "terms unless either party gives written notice of non-renewal at least ninety (90) days before the end of "
        "the then-current term.",
        "合同期满前三十日内任何一方未书面提出异议的，本合同自动续期一年，续期次数不限；续签条件另行协商。",
    ),
    "termination": (
        "Either party may terminate this Agreement for convenience, without cause, upon ninety (90) days' prior "
        "written notice, or immediately upon a material breach by the other party that remains uncured for thirty "
        "(30) days after notice.",
        "任何一方可提前三十日书面通知对方解除本合同；一方严重违约经催告后十五日内仍未改正的，守约方有权立即解除合同。",
    ),
    "governing_law": (
        "This Agreement shall be governed by and construed in accordance with the laws of the State of New York, "
        "without regard to its conflict of laws principles, and the parties submit to the jurisdiction of its courts.",
        "本合同的订立、效力、解释、履行及争议解决均适用中华人民共和国法律。",
    ),
    "dispute": (
        "Any dispute, controversy or claim arising out of or relating to this Agreement shall be finally settled by "
        "binding arbitration under the rules of the American Arbitration Association, and judgment may be entered "
        "in any court of competent jurisdiction.",
        "因本合同引起的或与本合同有关的任何争议，双方应友好协商解决；协商不成的，提交合同签订地有管辖权的人民法院诉讼解决，"
        "或提交仲裁委员会按其规则仲裁。",
    ),
    "assignment": (
        "Neither party may assign, delegate or otherwise transfer this Agreement or any of its rights or obligations "
        "hereunder without the prior written consent of the other party; any purported assignment without such "
        "consent shall be null and void.",
        "未经对方书面同意，任何一方不得将本合同项下的全部或部分权利义务转让给第三方。",
    ),
    "change_of_control": (
        "In the event of a change of control of a party, including a merger, consolidation, acquisition or sale of "
        "all or substantially all of its assets or voting securities, the other party may terminate this Agreement "
        "upon written notice.",
        "一方发生合并、分立、控股股东或实际控制人变更的，应及时书面通知对方，对方有权解除本合同。",
    ),
    "non_compete": (
        "During the term and for two years thereafter, the Company shall not, directly or indirectly, develop, "
        "manufacture, market or sell any product that competes with the Products in the Territory, except as "
        "expressly permitted herein.",
        "乙方在合同期内及合同终止后两年内，不得直接或间接从事与甲方业务相竞争的业务，也不得在与甲方有竞争关系的企业任职。",
    ),
    "exclusivity": (
        "Distributor is appointed the exclusive distributor of the Products in the Territory; during the term the "
        "Company shall not appoint any other distributor, agent or reseller, nor sell the Products directly to any "
        "customer in the Territory.",
        "在合同期限内，乙方为甲方产品在约定区域内的独家代理商，甲方不得在该区域内另行委托其他代理商或者直接销售。",
    ),
    "non_solicit": (
        "During the term and for one year thereafter, neither party shall solicit, recruit or hire any employee of "
        "the other party, nor induce any customer or supplier of the other party to end its relationship with it.",
        "合同期间及终止后一年内，任何一方不得招揽、雇用对方员工，也不得引诱对方客户终止与对方的业务往来。",
    ),
    "non_disparagement": (
        "Neither party shall make any public statement that disparages, defames or is derogatory of the other party "
        "or its products, services, officers or reputation.",
        "任何一方不得发表诋毁、贬损对方或其产品、服务、管理人员及商业声誉的言论。",
    ),
    "audit": (
        "Licensee shall keep complete and accurate books and records, and Licensor shall have the right, upon "
        "reasonable notice and during normal business hours, to inspect and audit such records to verify the "
        "amounts payable hereunder.",
        "甲方有权在提前书面通知后，于正常工作时间内查阅、审计乙方与本合同有关的账簿和记录，以核实应付款项。",
    ),
    "insurance": (
        "Supplier shall maintain at its own expense commercial general liability and product liability insurance "
        "with limits of not less than $1,000,000 per occurrence, naming the other party as an additional insured, "
        "and shall provide certificates of insurance on request.",
        "乙方应自费投保财产一切险及第三者责任险，保险金额不低于人民币一百万元，并将甲方列为共同被保险人。",
    ),
    "liability_cap": (
        "In no event shall either party's aggregate liability arising out of or relating to this Agreement exceed "
        "the total amounts paid hereunder in the twelve months preceding the claim, and neither party shall be "
        "liable for any indirect, incidental, consequential, special or punitive damages.",
        "任何一方在本合同项下的累计赔偿责任以本合同总价款为限，且不对间接损失、利润损失承担赔偿责任。",
    ),
    "liquidated_damages": (
        "If Supplier fails to deliver on time, it shall pay liquidated damages of one percent of the price for each "
        "week of delay, which the parties agree is a genuine pre-estimate of loss and not a penalty.",
        "一方违约的，应按合同总价款的百分之二十向守约方支付违约金；违约金不足以弥补损失的，还应赔偿差额部分。",
    ),
    "warranty": (
        "Supplier warrants that the Products shall conform to the specifications and be free from defects in "
        "materials and workmanship for a period of twelve (12) months from delivery, and shall repair or replace "
        "any defective Product.",
        "卖方保证所交付的货物符合合同约定的质量标准，质量保证期为交货之日起十二个月，保证期内出现质量问题的，卖方负责免费维修或更换。",
    ),
    "ip_ownership": (
        "All intellectual property rights in any inventions, works of authorship and developments created in the "
        "performance of this Agreement shall be the sole and exclusive property of the Company, and the Consultant "
        "hereby assigns to the Company all right, title and interest therein.",
        "乙方在履行本合同过程中完成的工作成果，其著作权、专利申请权等知识产权归甲方所有。",
    ),
    "joint_ip": (
        "Any invention conceived or reduced to practice jointly by employees of both parties shall be jointly "
        "owned by the parties, each having an undivided interest in such joint intellectual property.",
        "双方合作完成的发明创造，其专利申请权及知识产权由双方共有，任何一方行使共有权利应征得另一方同意。",
    ),
    "license": (
        "Licensor hereby grants to Licensee a non-exclusive, non-transferable, royalty-bearing license under the "
        "Licensed Patents and trademarks to use, make, sell and distribute the Licensed Products in the Territory "
        "during the Term.",
        "许可方授予被许可方在约定地域和期限内非独占地使用其注册商标（专利、软件）的权利，被许可方不得转许可。",
    ),
    "affiliates": (
        "The license granted hereunder extends to Licensee's Affiliates and subsidiaries, which may exercise such "
        "rights subject to the terms of this Agreement; Licensee remains responsible for their compliance.",
        "本合同授予的权利可由乙方的关联公司、子公司行使，乙方对其关联公司的行为承担责任。",
    ),
    "escrow": (
        "Licensor shall deposit the source code of the Software with an escrow agent, to be released to Licensee "
        "if Licensor becomes insolvent or ceases to support the Software.",
        "许可方应将软件源代码交由第三方托管，在许可方破产或停止提供维护时，托管方向被许可方交付源代码。",
    ),
    "post_termination": (
        "Upon termination or expiration of this Agreement, the parties' obligations that by their nature survive "
        "shall continue, and Supplier shall continue to provide support, transition assistance and spare parts, "
        "fulfil outstanding orders and keep records for a period thereafter.",
        "合同终止后，双方仍应履行通知、协助、保密等后合同义务，乙方应在终止后三十日内完成交接并继续提供必要的售后服务。",
    ),
    "minimum_commitment": (
        "Distributor shall purchase a minimum quantity of Products each calendar year; if the minimum purchase "
        "commitment is not met, Distributor shall pay the shortfall or the Company may end exclusivity.",
        "乙方每年的最低采购量不得少于一万件，未达到最低采购量的，应按差额向甲方支付补偿或甲方有权取消独家授权。",
    ),
    "volume": (
        "The Company shall not be required to supply more than the maximum quantity of units stated in the "
        "forecast, and orders in excess of that volume shall require the Company's written consent.",
        "甲方每月供货数量以订单为准，但最高不超过五千件；超出部分须经甲方书面确认。",
    ),
    "revenue_share": (
        "The Company shall pay the Partner a share equal to fifty percent (50%) of the net revenues and profits "
        "received from sales of the Products, with royalties calculated and paid quarterly.",
        "双方按四比六的比例分配合作项目的净利润，收益按季度结算，乙方按销售收入的百分之五向甲方支付提成。",
    ),
    "most_favored": (
        "If Supplier offers any other customer more favorable prices or terms for the Products, Supplier shall "
        "promptly offer the same more favorable prices and terms to Purchaser.",
        "甲方向任何第三方提供比本合同更优惠的价格或条件的，应同时向乙方提供同等优惠。",
    ),
    "first_refusal": (
        "Before selling, licensing or transferring the rights to any third party, the Company shall first offer "
        "them to the Investor, who shall have a right of first refusal to acquire them on the same terms within "
        "thirty days.",
        "甲方拟向第三方转让其股权或出售标的资产的，应先书面通知乙方，乙方在同等条件下享有优先购买权。",
    ),
    "covenant_not_to_sue": (
        "Licensee shall not contest, challenge or bring any claim or action against the validity of Licensor's "
        "patents or trademarks, or Licensor's ownership of the licensed intellectual property.",
        "乙方承诺不就甲方的商标、专利的有效性或权属提出异议、宣告无效或提起诉讼。",
    ),
    "third_party_beneficiary": (
        "Nothing in this Agreement is intended to confer any right or remedy on any person other than the parties "
        "and their permitted successors, and there are no third-party beneficiaries of this Agreement.",
        "本合同仅为双方利益订立，除合同另有约定外，任何第三方不得依据本合同主张权利。",
    ),
    "confidentiality": (
        "Each party shall keep confidential all Confidential Information disclosed by the other party and shall "
        "not disclose it to any third party or use it for any purpose other than performing this Agreement.",
        "双方对在履行本合同过程中知悉的对方商业秘密负有保密义务，未经对方书面同意不得向任何第三方披露。",
    ),
    "payment": (
        "Customer shall pay the fees set out in Schedule A within thirty (30) days after receipt of a valid invoice; "
        "late payments shall bear interest at one percent per month.",
        "乙方应于每月五日前向甲方支付租金人民币五千元，逾期支付的，每日按应付金额的万分之五支付滞纳金。",
    ),
    "remote_work": (
        "The Employee may work remotely from home up to two days per week, provided that the Employee remains "
        "available during normal working hours.",
        "经甲方同意，乙方每周可远程办公（居家办公）不超过两天，远程办公期间应保证正常工作时间内可随时联系。",
    ),
    "severance": (
        "If the Company terminates the employment without cause, it shall pay the Employee severance equal to "
        "one month's base salary for each full year of service.",
        "用人单位依法解除劳动合同的，应按劳动者在本单位工作的年限，每满一年支付一个月工资的经济补偿。",
    ),
    "deposit": (
        "Tenant shall pay a security deposit equal to two months' rent, to be returned without interest within "
        "thirty days after the end of the lease, less any amounts owed.",
        "承租人应于签订本合同时支付押金人民币一万元，租赁期满且无欠费的，出租人应无息退还押金。",
    ),
    "force_majeure": (
        "Neither party shall be liable for any failure or delay in performance caused by events beyond its "
        "reasonable control, including acts of God, fire, flood, epidemic, war, strikes or governmental action.",
        "因地震、火灾、战争、疫情等不可抗力事件致使一方不能履行本合同的，该方不承担违约责任，但应在十日内书面通知对方并提供证明。",
    ),
    "notice": (
        "All notices under this Agreement shall be in writing and delivered by hand, courier, registered mail or "
        "email to the addresses of the parties set out above, and are effective upon receipt.",
        "本合同项下的通知应以书面形式送达对方在本合同中载明的地址，以专人送达、挂号信或电子邮件方式发出。",
    ),
}  # fmt: skip


def prototype_text(question: str) -> str:
    """The model clauses of the question's clause types, in its language; empty when none apply."""
    lang = 1 if is_chinese(question) else 0
    return " ".join(PROTOTYPES[c.name][lang] for c in concepts_of(question) if c.name in PROTOTYPES)

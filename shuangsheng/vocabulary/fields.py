"""The match record's field names (as in the JSON record, docs/match-record.md) and their Chinese labels (as the
score sheet's column headers). Pure; below `shuangsheng.vocabulary.errors`, which names a field in a message by its label."""

from __future__ import annotations

FIELDS = (
    "dealer",
    "points",
    "bottom",
    "capture",
    "level_card_capture",
    "dealer_wrong_cards",
    "defender_wrong_cards",
    "offense",
    "playoff",
    "level",
)
FIELD_CN = {
    "dealer": "庄家",
    "points": "台下得分",
    "bottom": "底牌分",
    "capture": "抠底倍数",
    "level_card_capture": "级牌抠底",
    "dealer_wrong_cards": "台上罚张",
    "defender_wrong_cards": "台下罚张",
    "offense": "违规",
    "playoff": "加赛",
    "level": "庄家级",
}

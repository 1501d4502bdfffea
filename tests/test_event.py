"""event.toml: the default is the seed notice, encodings Notepad produces, every bad value named."""

from __future__ import annotations

import pytest

from shuangsheng.game.rules import DealerTable
from shuangsheng.storage.event import EventError, ThirdPlace, default_event, default_text, load, parse


def test_default_event_carries_the_seed_notice():
    event = default_event()
    assert event.organiser == "离退休教职工服务中心"
    assert event.registration.phone == "2973620" and event.registration.contact == "王发虎"
    assert str(event.registration.start) == "2026-03-03" and str(event.registration.end) == "2026-03-09"
    assert event.start_time == "8:30" and "201棋牌室" in event.venue
    assert (event.prizes.first, event.prizes.second, event.prizes.third) == (1, 1, 2)
    assert event.rules.match_minutes == 60 and event.third_place is ThirdPlace.SHARED


@pytest.mark.parametrize("encoding", ["utf-8", "utf-8-sig"])
def test_load_accepts_utf8_with_or_without_its_mark(tmp_path, encoding):
    (tmp_path / "event.toml").write_bytes(default_text().encode(encoding))
    assert load(tmp_path) == default_event()


@pytest.mark.parametrize("encoding", ["gbk", "big5"])
def test_another_encoding_is_refused_with_how_to_save_it_as_utf8(tmp_path, encoding):
    """A Big5-saved event.toml was read as GBK and printed garbled titles: any encoding but UTF-8 is refused (which
    of GBK and Big5 it is cannot be told reliably), saying how to save it right; following the advice works."""
    path = tmp_path / "event.toml"
    path.write_bytes(default_text().encode(encoding, errors="replace"))
    with pytest.raises(EventError) as info:
        load(tmp_path)
    message = info.value.messages[0]
    assert message.startswith(str(path)) and "不是 UTF-8" in message and "另存为" in message and "UTF-8" in message
    path.write_bytes(path.read_bytes().decode(encoding).encode("utf-8"))  # 另存为 UTF-8
    assert load(tmp_path).title == default_text().encode(encoding, errors="replace").decode(encoding).split(
        'title = "')[1].split('"')[0]  # what the file held (Big5 has no 职 or 双: as saved)


def test_a_nul_byte_is_refused_naming_its_line(tmp_path):
    text = default_text().replace("\n", "\n\x00", 1)
    (tmp_path / "event.toml").write_text(text, encoding="utf-8")
    with pytest.raises(EventError) as info:
        load(tmp_path)
    assert "第2行有空字符（NUL）" in info.value.messages[0]


def test_a_text_value_too_long_is_refused_naming_its_key(tmp_path):
    """Inputs bounded before they are laid out: a 900 KB title made `materials` run for minutes."""
    text = default_text()
    title = default_event().title
    (tmp_path / "event.toml").write_text(text.replace(title, "长" * 101, 1), encoding="utf-8")
    with pytest.raises(EventError) as info:
        load(tmp_path)
    assert info.value.messages == [f"{tmp_path / 'event.toml'}：[event] title：太长了（101 个字），最多 100 个字"]
    (tmp_path / "event.toml").write_text(text.replace(title, "长" * 100, 1), encoding="utf-8")
    assert load(tmp_path).title == "长" * 100
    venue = default_event().venue
    (tmp_path / "event.toml").write_text(text.replace(venue, "地" * 2001, 1), encoding="utf-8")
    with pytest.raises(EventError) as info:
        load(tmp_path)
    assert info.value.messages == [f"{tmp_path / 'event.toml'}：[event] venue：太长了（2001 个字），最多 2000 个字"]


def test_missing_file_says_how_to_create_it(tmp_path):
    with pytest.raises(EventError) as info:
        load(tmp_path)
    assert "shuangsheng init" in info.value.messages[0]


def test_award_date_is_a_date_or_left_blank():
    import datetime as dt

    assert default_event().print.award_date is None  # the day awards runs
    text = default_text().replace('award_date = ""', "award_date = 2026-03-15")
    assert parse(text, source="event.toml").print.award_date == dt.date(2026, 3, 15)
    text = default_text().replace('award_date = ""', 'award_date = "3月15日"')
    with pytest.raises(EventError, match=r"\[print\] award_date：应为日期，如 2026-03-09"):
        parse(text, source="event.toml")


def test_rules_section_is_read():
    text = default_text().replace('dealer_table = "ceil"', 'dealer_table = "floor"')
    assert parse(text, source="event.toml").rules.dealer_table is DealerTable.FLOOR


def test_every_bad_value_is_named_with_its_section():
    text = (
        default_text()
        .replace('dealer_table = "ceil"', 'dealer_table = "round"')
        .replace('third_place = "shared"', 'third_place = "并列"')
        .replace("end = 2026-03-09", 'end = "3月9日"')
        .replace("first = 1 ", 'first = "一" ')
    )
    with pytest.raises(EventError) as info:
        parse(text, source="event.toml")
    problems = "\n".join(info.value.messages)
    assert "[rules] dealer_table" in problems
    assert "[format] third_place" in problems
    assert "[registration] end" in problems and "3月9日" in problems
    assert "[prizes] first" in problems


def test_broken_toml_is_a_chinese_error():
    with pytest.raises(EventError) as info:
        parse('[event]\ntitle = "没有结束的引号\n', source="event.toml")
    assert "格式有误" in info.value.messages[0]


def _with_serve(lines: str) -> str:
    text = default_text()
    return text[:text.index("[serve]")] + "[serve]\n" + lines + "\n"


def test_serve_section_defaults_to_a_new_pin_each_start_and_the_desk_on_this_pc_only():
    serve = default_event().serve
    assert (serve.pin, serve.address, serve.desk_lan) == (None, None, False)
    serve = parse(_with_serve('pin = "012345"\naddress = "192.168.1.20"\ndesk_lan = true'), source="e").serve
    assert (serve.pin, serve.address, serve.desk_lan) == ("012345", "192.168.1.20", True)


@pytest.mark.parametrize(("line", "message"), [
    ("pin = 12345", '[serve] pin：请加引号写成 6 位数字，如 pin = "012345"'),  # unquoted: the leading 0 is lost
    ('pin = "12345"', "[serve] pin：应为 6 位数字"),
    ('pin = "12a456"', "[serve] pin：应为 6 位数字"),
    ('pin = "１２３４５６"', "[serve] pin：应为 6 位数字"),
    ('address = "本机"', "[serve] address：应为本机的局域网 IP 地址"),
    ('address = "192.168.1.256"', "[serve] address：应为本机的局域网 IP 地址"),
    ('desk_lan = "yes"', "[serve] desk_lan：应为 true 或 false"),
    ("port = 80", "[serve] 未知的设置项“port”"),
])
def test_serve_section_bad_values_are_named_in_chinese(line, message):
    with pytest.raises(EventError) as info:
        parse(_with_serve(line), source="event.toml")
    assert [message in m for m in info.value.messages] == [True]


def test_avoid_same_unit_defaults_to_round_one_and_is_checked():
    from shuangsheng.knockout.formats import AvoidSameUnit

    assert parse(default_text(), source="event.toml").avoid_same_unit is AvoidSameUnit.FIRST_ROUND
    every = default_text().replace('avoid_same_unit = "round1"', 'avoid_same_unit = "every_round"')
    assert parse(every, source="event.toml").avoid_same_unit is AvoidSameUnit.EVERY_ROUND
    with pytest.raises(EventError) as info:
        parse(default_text().replace('avoid_same_unit = "round1"', 'avoid_same_unit = "每轮"'), source="event.toml")
    assert info.value.messages == ['event.toml：[format] avoid_same_unit：应为 "round1" 或 "every_round"，实际为 \'每轮\'']
    old = default_text().replace('avoid_same_unit = "round1"', "")  # an event.toml from before the key
    assert parse(old, source="event.toml").avoid_same_unit is AvoidSameUnit.FIRST_ROUND

"""event.toml as the console's settings form (shuangsheng/storage/settings.py, usecases/settings.py): every key with
docs/event-toml.md's help, saved keeping comments and order, checked by the loader itself, refused when the file
changed since it was read or when [format] is frozen by a draw."""

from __future__ import annotations

import hashlib
import re
import tomllib
from pathlib import Path

import pytest

from shuangsheng.game.rules import CHOICES
from shuangsheng.knockout.formats import AvoidSameUnit, Byes, ThirdPlace
from shuangsheng.storage import event as event_file
from shuangsheng.storage import settings
from shuangsheng.storage.names import EVENT_FILE
from shuangsheng.storage.settings import SETTINGS, Kind, SettingsFrozen, SettingsInvalid, SettingsStale
from shuangsheng.usecases import settings as settings_page
from shuangsheng.vocabulary.text import width
from tests.events import draw, start_event

ROOT = Path(__file__).resolve().parents[1]


def md_rows() -> list[tuple[str, str, bool | None, str, str]]:
    """docs/event-toml.md's key tables: (section, key, required or None, meaning, last column), in order."""
    rows, section = [], None
    for line in (ROOT / "docs" / "event-toml.md").read_text(encoding="utf-8").splitlines():
        if m := re.match(r"## \[(\w+)\]", line):
            section = m.group(1)
        elif line.startswith("| `") and section:
            cells = [c.strip() for c in line.strip().strip("|").split("|")]
            key = cells[0].strip("`")
            if len(cells) == 4:
                rows.append((section, key, cells[1] == "是", cells[2], cells[3]))
            else:
                rows.append((section, key, None, cells[1], cells[2]))
    return rows


def test_the_form_s_help_is_docs_event_toml_row_by_row():
    assert md_rows() == [(s.section, s.key, s.required, s.meaning, s.values) for s in SETTINGS]


def test_the_help_under_a_field_names_no_command_to_type():
    """The console's 设置 page shows each key's help (docs/console.md: no page tells the organiser to type a command): no
    option, no command name, no markdown left over."""
    commands = ("shuangsheng", "serve", "draw", "score", "awards", "checkin", "materials", "replace", "init")
    for setting in SETTINGS:
        words = set(re.findall(r"[a-z]+", re.sub(r"[\w-]+\.md", "", setting.help)))  # a guide named is no command
        assert "--" not in setting.help and "`" not in setting.help and "](" not in setting.help, setting.name
        assert not words & set(commands), (setting.name, words & set(commands))


def test_every_key_of_the_default_event_toml_is_a_field_and_no_other():
    data = tomllib.loads(event_file.default_text())
    assert [f"{section}.{key}" for section, table in data.items() for key in table] == [s.name for s in SETTINGS]


def test_a_choice_offers_exactly_the_values_the_loader_takes():
    options = {**CHOICES, "third_place": ThirdPlace, "byes": Byes, "avoid_same_unit": AvoidSameUnit}
    for s in SETTINGS:
        if s.kind is Kind.CHOICE:
            assert [c.value for c in s.choices] == [m.value for m in options[s.key]], s.name
            assert all(c.label for c in s.choices) and s.default in [c.value for c in s.choices]
        else:
            assert s.choices == ()


@pytest.mark.parametrize("setting", [s for s in SETTINGS if not s.required], ids=lambda s: s.name)
def test_every_default_is_what_the_loader_takes_for_a_missing_key(setting):
    """A form shows `default` for a missing key: the loader reads the file without the key as with it."""
    import tomlkit

    without, spelled = tomlkit.parse(event_file.default_text()), tomlkit.parse(event_file.default_text())
    del without[setting.section][setting.key]
    spelled[setting.section][setting.key] = tomllib.loads(f"x = {_literal(setting)}")["x"]
    assert event_file.parse(tomlkit.dumps(without), source=EVENT_FILE) == \
        event_file.parse(tomlkit.dumps(spelled), source=EVENT_FILE)


def _literal(s: settings.Setting) -> str:
    if s.kind in (Kind.INT, Kind.BOOL):
        return s.default
    if s.kind is Kind.LEVELS:
        return "[" + ", ".join(f'"{level}"' for level in s.default.split(",")) + "]"
    return f'"{s.default}"'


# --- reading ---


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    (tmp_path / EVENT_FILE).write_text(event_file.default_text(), encoding="utf-8")
    return tmp_path


def test_the_form_holds_every_key_s_value_as_text_and_the_file_s_fingerprint(folder):
    form = settings_page.settings_form(folder)
    assert form.fingerprint == hashlib.sha256((folder / EVENT_FILE).read_bytes()).hexdigest()
    assert [f.name for f in form.fields] == [s.name for s in SETTINGS]
    values = {f.name: f.value for f in form.fields}
    assert values["event.notice_date"] == "2026-03-03" and values["rules.must_play"] == "2,J,A"
    assert values["prizes.first"] == "1" and values["print.large_print"] == "true" and values["serve.pin"] == ""
    assert all(f.present and not f.frozen and not f.issues for f in form.fields)
    assert (form.issues, form.readable, form.drawn) == ((), True, False)
    field = form.field("rules.dealer_table")
    assert field.setting.label == "庄家升级表" and field.setting.help.startswith("庄家保庄（台下总分 P < 80）时升几级。取值：")
    assert "`" not in field.setting.help


def test_a_missing_key_is_an_empty_field_with_its_default(folder):
    path = folder / EVENT_FILE
    path.write_text(path.read_text(encoding="utf-8").replace("first = 1", ""), encoding="utf-8")
    field = settings.read_settings(folder).field("prizes.first")
    assert (field.value, field.present, field.setting.default) == ("", False, "1")


def test_a_bad_value_is_shown_at_its_field_in_chinese(folder):
    path = folder / EVENT_FILE
    path.write_text(path.read_text(encoding="utf-8").replace('pin = ""', "pin = 12345"), encoding="utf-8")
    form = settings.read_settings(folder)
    (issue,) = form.field("serve.pin").issues
    assert issue.message == '裁判台密码：请加引号写成 6 位数字，如 pin = "012345"'
    assert issue.as_json()["field"] == "serve.pin" and form.issues == (issue,) and form.field("serve.pin").value == "12345"


def test_a_file_that_is_no_toml_is_a_form_with_the_loader_s_message_and_nothing_to_save(folder):
    path = folder / EVENT_FILE
    path.write_text(path.read_text(encoding="utf-8").replace('title = "', "title = “"), encoding="utf-8")
    form = settings.read_settings(folder)
    assert not form.readable and all(f.value == "" for f in form.fields)
    assert "引号要用英文半角" in form.issues[0].detail
    with pytest.raises(SettingsInvalid, match="引号要用英文半角"):
        settings.save_settings(folder, {"event.title": "新名称"}, form.fingerprint)


# --- saving ---


def test_saving_changes_only_the_keys_changed_keeping_comments_order_and_the_rest(folder):
    path = folder / EVENT_FILE
    before = path.read_text(encoding="utf-8")
    form = settings.read_settings(folder)
    values = {f.name: f.value for f in form.fields} | {
        "event.title": "春季双升级比赛", "rules.must_play": "2、A", "prizes.first": "2", "print.large_print": "false",
        "print.award_date": "2026-03-15", "serve.pin": "012345"}
    saved = settings_page.save_settings(folder, values, form.fingerprint)
    assert saved.changed == ("event.title", "prizes.first", "rules.must_play", "print.large_print",
                             "print.award_date", "serve.pin")
    assert saved.rules_changed == ("rules.must_play",)
    after = path.read_text(encoding="utf-8")
    assert saved.fingerprint == hashlib.sha256(path.read_bytes()).hexdigest()
    old, new = before.splitlines(), after.splitlines()
    assert len(old) == len(new)
    differ = [(a, b) for a, b in zip(old, new, strict=True) if a != b]
    assert len(differ) == 6
    for a, b in differ:  # the same key, its comment kept in the column the file lines comments up in
        assert a.split("=")[0] == b.split("=")[0] and a.partition("#")[2] == b.partition("#")[2]
        assert width(a.partition("#")[0]) == width(b.partition("#")[0])
    loaded = event_file.load(folder)
    assert loaded.title == "春季双升级比赛" and [lv.label for lv in loaded.rules.must_play] == ["2", "A"]
    assert (loaded.prizes.first, loaded.print.large_print, str(loaded.print.award_date), loaded.serve.pin) == (
        2, False, "2026-03-15", "012345")
    assert saved.backup is not None and saved.backup.read_text(encoding="utf-8") == before
    assert saved.backup.parent == folder / "备份" and saved.backup.name.startswith("event.备份-")


def test_a_form_saved_unchanged_writes_nothing(folder):
    form = settings.read_settings(folder)
    saved = settings.save_settings(folder, {f.name: f.value for f in form.fields}, form.fingerprint)
    assert (saved.changed, saved.backup) == ((), None)
    assert sorted(p.name for p in folder.iterdir()) == [EVENT_FILE]


def test_a_value_the_loader_refuses_is_refused_with_its_message_at_its_field_and_nothing_written(folder):
    path = folder / EVENT_FILE
    before = path.read_bytes()
    form = settings.read_settings(folder)
    with pytest.raises(SettingsInvalid) as info:
        settings.save_settings(folder, {"prizes.first": "三", "rules.must_play": "2,X", "serve.pin": "12345",
                                        "registration.end": "2026-03-01", "event.notice_date": "3月3日"},
                               form.fingerprint)
    found = {issue.field: issue.message for issue in info.value.issues}
    assert found == {
        "prizes.first": "一等奖名额：应为 0–100 的整数，实际为 '三'",
        "rules.must_play": "必打级：“X”不是级数（应为 2…10、J、Q、K、A）",
        "serve.pin": '裁判台密码：应为 6 位数字（如 "205318"），或留空（""）每次启动时新生成，实际为 \'12345\'',
        "event.notice_date": "通知落款日期：应为日期，如 2026-03-09，实际为 '3月3日'",
    }
    assert path.read_bytes() == before and sorted(p.name for p in folder.iterdir()) == [EVENT_FILE]
    with pytest.raises(SettingsInvalid) as info:  # the loader's check across keys, at the key it names
        settings.save_settings(folder, {"registration.end": "2026-03-01"}, form.fingerprint)
    assert [(i.field, i.message) for i in info.value.issues] == [("registration.end", "报名截止日期：报名截止日期早于开始日期 start")]


def test_a_key_no_form_has_is_refused(folder):
    form = settings.read_settings(folder)
    with pytest.raises(SettingsInvalid, match="没有这一项设置"):
        settings.save_settings(folder, {"serve.port": "80"}, form.fingerprint)


def test_a_file_changed_since_the_form_was_read_is_not_written_over(folder):
    path = folder / EVENT_FILE
    form = settings.read_settings(folder)
    path.write_text(path.read_text(encoding="utf-8").replace("王发虎", "李四"), encoding="utf-8")
    with pytest.raises(SettingsStale) as info:
        settings.save_settings(folder, {"event.title": "新名称"}, form.fingerprint)
    assert [i.detail for i in info.value.issues] == ["设置文件在别处被改过，请重新打开设置页"]
    assert "李四" in path.read_text(encoding="utf-8") and "新名称" not in path.read_text(encoding="utf-8")


def test_an_emptied_number_or_choice_is_removed_so_its_default_applies_and_an_empty_text_stays(folder):
    form = settings.read_settings(folder)
    saved = settings.save_settings(folder, {"prizes.second": "", "rules.tie_break": " ", "event.addressee": ""},
                                   form.fingerprint)
    data = tomllib.loads((folder / EVENT_FILE).read_text(encoding="utf-8"))
    assert "second" not in data["prizes"] and "tie_break" not in data["rules"] and data["event"]["addressee"] == ""
    assert saved.changed == ("event.addressee", "prizes.second", "rules.tie_break")
    form = settings.read_settings(folder)
    assert (form.field("prizes.second").present, form.field("prizes.second").value) == (False, "")
    saved = settings.save_settings(folder, {"prizes.second": ""}, form.fingerprint)  # missing and left empty: unchanged
    assert saved.changed == ()


def test_a_key_added_to_a_file_without_it_lands_in_its_section(folder):
    path = folder / EVENT_FILE
    path.write_text(path.read_text(encoding="utf-8").replace("match_minutes = 60", ""), encoding="utf-8")
    form = settings.read_settings(folder)
    settings.save_settings(folder, {"rules.match_minutes": "45"}, form.fingerprint)
    data = tomllib.loads(path.read_text(encoding="utf-8"))
    assert data["rules"]["match_minutes"] == 45 and list(data) == ["event", "registration", "prizes", "rules",
                                                                   "format", "print", "serve", "officials"]


def test_text_is_written_as_text_whatever_it_holds(folder):
    form = settings.read_settings(folder)
    odd = '=1+1 "引号" \\ C:\\Windows # 不是注释'
    settings.save_settings(folder, {"event.venue": odd, "print.font": "C:\\Windows\\Fonts\\simkai.ttf"}, form.fingerprint)
    loaded = event_file.load(folder)
    assert loaded.venue == odd.strip() and loaded.print.font == "C:\\Windows\\Fonts\\simkai.ttf"


def test_notepad_s_bom_and_crlf_are_kept(folder):
    path = folder / EVENT_FILE
    path.write_bytes(b"\xef\xbb\xbf" + event_file.default_text().replace("\n", "\r\n").encode("utf-8"))
    form = settings.read_settings(folder)
    settings.save_settings(folder, {"event.title": "新名称"}, form.fingerprint)
    data = path.read_bytes()
    assert data.startswith(b"\xef\xbb\xbf") and b"\r\n" in data and b"\n" not in data.replace(b"\r\n", b"")
    assert event_file.load(folder).title == "新名称"


def test_format_is_frozen_after_the_first_draw_the_rest_is_not(tmp_path):
    rng = start_event(tmp_path, teams=4)
    draw(tmp_path, rng)
    form = settings.read_settings(tmp_path)
    assert form.drawn and [f.name for f in form.fields if f.frozen] == [
        "format.third_place", "format.byes", "format.avoid_same_unit", "format.late_minutes"]
    values = {f.name: f.value for f in form.fields}
    with pytest.raises(SettingsFrozen) as info:
        settings.save_settings(tmp_path, values | {"format.byes": "each_round", "event.title": "新名称"}, form.fingerprint)
    assert [(i.field, i.message) for i in info.value.issues] == [("format.byes", "轮空：第1轮已经抽签，赛制不能再改")]
    assert event_file.load(tmp_path).title != "新名称"
    saved = settings.save_settings(tmp_path, values | {"event.title": "新名称"}, form.fingerprint)  # [format] as it was
    assert saved.changed == ("event.title",)


def test_the_use_case_waits_for_a_command_holding_the_folder_then_names_it(folder):
    from shuangsheng.storage.ledger.lock import FolderBusy, exclusive

    form = settings.read_settings(folder)
    with exclusive(folder), pytest.raises(FolderBusy):
        settings_page.save_settings(folder, {"event.title": "新名称"}, form.fingerprint, patience=0.1)
    assert event_file.load(folder).title != "新名称"

"""The two booklets (秩序册 from `materials` and again once round 1 is drawn, 成绩册 from `awards`) and the
settings they print: [officials] and the timetable keys of [event]."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

from shuangsheng.storage import event as event_file
from shuangsheng.storage import settings
from shuangsheng.storage.names import EVENT_FILE

OFFICIALS = '''
[officials]
committee = ["主任：王发虎", "副主任：李秀英"]
arbitration = "主任：张建华"
chief_referee = []
referees = ["裁判员：赵振华", "记分员：周玉梅"]
'''


def with_officials(text: str = OFFICIALS) -> str:
    base = event_file.default_text()
    return base[:base.index("[officials]")] + text.lstrip()


# --- the settings ---


def test_officials_and_the_timetable_are_read_as_typed():
    event = event_file.parse(with_officials().replace('awards_time = ""', 'awards_time = "１１：３０"'), source=EVENT_FILE)
    assert event.officials.committee == ("主任：王发虎", "副主任：李秀英")
    assert event.officials.arbitration == ("主任：张建华",) and event.officials.chief_referee == ()
    assert (event.checkin_time, event.round_gap_minutes, event.awards_time) == ("8:00", 10, "11:30")
    default = event_file.default_event()
    assert default.officials == event_file.Officials() and default.awards_time == ""


@pytest.mark.parametrize(("text", "said"), [
    ('committee = ["主任：王发虎", ""]', "第2项是空的"),
    ("referees = [3]", "第1项应为加引号的文字，实际为 3"),
    ("arbitration = 5", '应为加引号的文字列表，如 ["主任：王发虎", "副主任：李秀英"]，实际为 5'),
])
def test_a_bad_officials_list_is_an_issue_naming_its_key(text, said):
    with pytest.raises(event_file.EventError) as caught:
        event_file.parse(with_officials(f"[officials]\n{text}\n"), source=EVENT_FILE)
    (issue,) = caught.value.issues
    assert issue.setting == ("officials", text.split(" ")[0]) and said in issue.detail


@pytest.mark.parametrize("key", ["checkin_time", "awards_time"])
def test_a_timetable_time_is_checked_as_start_time_is(key):
    text = event_file.default_text().replace(f'{key} = "8:00"', f'{key} = ""').replace(f'{key} = ""', f'{key} = "上午八点"')
    with pytest.raises(event_file.EventError) as caught:
        event_file.parse(text, source=EVENT_FILE)
    (issue,) = caught.value.issues
    assert issue.setting == ("event", key) and '应为时:分，如 "8:30"' in issue.detail


def test_the_settings_form_takes_officials_one_a_line(tmp_path: Path):
    (tmp_path / EVENT_FILE).write_text(with_officials(), encoding="utf-8")
    form = settings.read_settings(tmp_path)
    assert form.field("officials.committee").value == "主任：王发虎\n副主任：李秀英"
    settings.save_settings(tmp_path, {"officials.chief_referee": "裁判长：陈立新\n\n", "officials.committee": ""},
                           form.fingerprint)
    data = tomllib.loads((tmp_path / EVENT_FILE).read_text(encoding="utf-8"))
    assert data["officials"]["chief_referee"] == ["裁判长：陈立新"] and data["officials"]["committee"] == []

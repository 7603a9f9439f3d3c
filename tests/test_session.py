"""The default session follows the environment: a launch outside ``session.using`` and one inside
``session.using(RunOptions())`` pick the same engines even when the variables change mid-process."""

from tilecraft import options, session


def test_the_default_sessions_options_follow_the_environment_after_first_use(monkeypatch):
    monkeypatch.setenv(options.DEVICES_VARIABLE, "2")
    assert session.options().devices == 2  # first use under the patched value
    monkeypatch.setenv(options.DEVICES_VARIABLE, "3")
    assert session.options().devices == 3
    with session.using(options.RunOptions()):
        assert session.options().devices == 3
    monkeypatch.delenv(options.DEVICES_VARIABLE)
    assert session.options().devices == options.DEFAULT_DEVICES


def test_the_default_session_is_reused_while_the_environment_is_unchanged():
    assert session.current() is session.current()

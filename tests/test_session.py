"""The default session follows the environment: a launch outside ``session.using`` and one inside
``session.using(RunOptions())`` pick the same engines even when the variables change mid-process."""

from tilecraft import options, session


def test_the_default_sessions_options_follow_the_environment_after_first_use(monkeypatch):
    monkeypatch.setenv(options.COMPUTE_VARIABLE, "emulator")
    assert session.options().compute_engine == "emulator"  # first use under the patched value
    monkeypatch.setenv(options.COMPUTE_VARIABLE, "tensix")
    assert session.options().compute_engine == "tensix"
    with session.using(options.RunOptions()):
        assert session.options().compute_engine == "tensix"
    monkeypatch.delenv(options.COMPUTE_VARIABLE)
    assert session.options().compute_engine == options.COMPUTE_ENGINES[0]


def test_the_default_session_is_reused_while_the_environment_is_unchanged():
    assert session.current() is session.current()

"""The explorer's Streamlit settings (`.streamlit/config.toml`) as `streamlit run app.py` reads them."""

import tomllib
from pathlib import Path

CONFIG = Path(__file__).resolve().parents[2] / ".streamlit" / "config.toml"


def test_a_disconnected_session_is_kept_long_enough_for_a_long_run():
    # Streamlit drops a session whose websocket has been gone for server.disconnectedSessionTTL
    # seconds (default 120): a busy run on a large table lost the user's upload and search.
    settings = tomllib.loads(CONFIG.read_text(encoding="utf-8"))
    assert settings["server"]["disconnectedSessionTTL"] >= 1800


def test_streamlit_reads_the_setting(monkeypatch):
    from streamlit import config

    monkeypatch.chdir(CONFIG.parents[1])
    config.get_config_options(force_reparse=True)
    try:
        assert config.get_option("server.disconnectedSessionTTL") >= 1800
    finally:
        config.get_config_options(force_reparse=True)

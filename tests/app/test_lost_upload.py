"""After a session expired (disconnected past disconnectedSessionTTL, or a server restart) the uploader
still names the file while the server no longer holds it: the sidebar says so instead of "the current
data stay loaded" beside the bundled sample (seen in the lost-session browser walk,
test_browser_lost_session.py, which checks the line on the page)."""

from streamlit import config
from streamlit.runtime.uploaded_file_manager import DeletedFile

from explorer import loading


def test_a_deleted_file_is_lost_an_uploaded_one_or_none_is_not():
    assert loading.upload_lost(DeletedFile("f1"))
    assert not loading.upload_lost(None)

    class Uploaded:  # what st.file_uploader returns: a file id and its bytes
        file_id = "f2"

        def getvalue(self) -> bytes:
            return b"a,b\n1,2\n"

    assert not loading.upload_lost(Uploaded())


def test_the_line_names_the_servers_ttl():
    before = config.get_option("server.disconnectedSessionTTL")
    try:
        config.set_option("server.disconnectedSessionTTL", 3600)
        assert "(1 h here)" in loading.lost_upload_text()
        config.set_option("server.disconnectedSessionTTL", 120)
        assert "(2 min here)" in loading.lost_upload_text()
        assert loading.lost_upload_text().endswith("Remove the file (×) and upload it again.")
    finally:
        config.set_option("server.disconnectedSessionTTL", before)

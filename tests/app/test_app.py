"""The whole app (app.py): start-up, the sidebar's data sources, uploads and settings."""

from __future__ import annotations

from conftest import texts

from engine.cpd import CPD_TYPES
from explorer import loading, sidebar, state

SACHS = next(iter(loading.SAMPLES))


def _choose_upload(at):
    at.radio(key=state.W_SOURCE).set_value(sidebar.SOURCES[1]).run()
    assert not at.exception
    return at


def _names(at) -> tuple[str, ...]:
    return at.session_state[state.SESSION].dataset.names


class TestStartup:
    def test_starts_on_default_sample_with_summary(self, app):
        assert not at_errors(app)
        assert app.session_state[state.SESSION].label == SACHS
        summary = "853 instances x 11 variables, standardized"
        assert any(summary in t for t in texts(app.markdown) + texts(app.caption))
        assert app.title[0].value == "Ideal Parent Explorer"

    def test_sidebar_has_every_control(self, app):
        for key in (
            state.W_SOURCE,
            state.W_STANDARDIZE,
            state.W_SAMPLE,
            state.W_METHOD,
            state.W_K,
            state.W_MEASURE,
            state.W_QUEUE,
            state.W_MAX_PARENTS,
            state.W_CPD,
            state.W_CORRECTION,
        ):
            assert key in app.session_state, key
        cpd = app.selectbox(key=state.W_CPD)
        # the choices come from the CPD registry, shown by their labels
        assert cpd.options == [c.label for c in CPD_TYPES] and cpd.value == "linear"

    def test_loading_notes_shown(self, app):
        assert any("standardized each variable" in t for t in texts(app.markdown))

    def test_pages_reachable(self, app):
        for page in ("search.py", "truth.py", "home.py"):
            app.switch_page(f"explorer/pages/{page}").run()
            assert not app.exception, page


def at_errors(at) -> list[str]:
    return texts(at.error)


class TestDataSources:
    def test_other_sample(self, app):
        label = "Synthetic linear-Gaussian network (500 x 20)"
        app.selectbox(key=state.W_SAMPLE).set_value(label).run()
        assert not app.exception
        assert app.session_state[state.SESSION].label == label
        assert app.session_state[state.SESSION].dataset.n_vars == 20
        assert len(app.session_state[state.SESSION].truth) == 18

    def test_standardize_off(self, app):
        app.checkbox(key=state.W_STANDARDIZE).uncheck().run()
        assert not app.exception
        assert not app.session_state[state.SESSION].dataset.standardized

    def test_synthetic_network(self, app):
        app.radio(key=state.W_SOURCE).set_value(sidebar.SOURCES[2]).run()
        assert not app.exception
        ds = app.session_state[state.SESSION].dataset
        assert (ds.n_vars, ds.n_samples) == (20, 500)
        assert app.session_state[state.SESSION].truth
        app.number_input(key=state.W_SYN_N).set_value(6)
        app.button(key=state.W_SYN_GO).click().run()
        assert not app.exception
        assert app.session_state[state.SESSION].dataset.n_vars == 6

    def test_good_upload(self, app):
        _choose_upload(app)
        csv = b"a,b,c\n1,2,3\n2,3,5\n3,5,4\n4,4,8\n5,7,9\n6,5,11\n"
        app.file_uploader(key=state.W_UPLOAD).set_value(("mine.csv", csv, "text/csv")).run()
        assert not app.exception
        assert not at_errors(app)
        assert _names(app) == ("a", "b", "c")
        assert app.session_state[state.SESSION].truth is None

    def test_upload_transposed(self, app):
        _choose_upload(app)
        app.radio(key=state.W_ORIENT).set_value(sidebar.ORIENTATIONS[1]).run()
        tsv = b"gene\tc1\tc2\tc3\tc4\tc5\ng1\t1\t2\t3\t4\t6\ng2\t2\t1\t4\t3\t5\n"
        app.file_uploader(key=state.W_UPLOAD).set_value(("expr.tsv", tsv, "text/tab-separated-values"))
        app.run()
        assert not app.exception
        assert _names(app) == ("g1", "g2")
        assert any("transposed" in n for n in app.session_state[state.SESSION].dataset.notes)

    def test_text_file_that_is_not_a_table(self, app):
        before = _names(app)
        _choose_upload(app)
        text = b"Dear colleague,\nplease find the results attached.\nBest wishes\n"
        app.file_uploader(key=state.W_UPLOAD).set_value(("letter.txt", text, "text/plain")).run()
        assert not app.exception
        errors = at_errors(app)
        assert errors and any("letter.txt" in e and "as a table" in e for e in errors), errors
        assert any("still loaded" in e for e in errors)
        assert _names(app) == before
        assert app.session_state[state.SESSION].stepper is not None

    def test_csv_with_non_numeric_column(self, app):
        """A text column in an upload is left out (and said so), the numbers load."""
        _choose_upload(app)
        csv = b"x,y,site\n1.0,2.0,north\n2.0,2.5,south\n3.0,4.1,east\n4.0,3.9,west\n"
        app.file_uploader(key=state.W_UPLOAD).set_value(("field.csv", csv, "text/csv")).run()
        assert not app.exception
        assert not at_errors(app)
        assert _names(app) == ("x", "y")
        assert any("left out non-numeric column(s) site" in n for n in app.session_state[state.SESSION].dataset.notes)

    def test_csv_with_only_text_is_refused(self, app):
        before = _names(app)
        _choose_upload(app)
        csv = b"a,b\nnorth,x\nsouth,y\neast,z\nwest,w\n"
        app.file_uploader(key=state.W_UPLOAD).set_value(("words.csv", csv, "text/csv")).run()
        assert not app.exception
        errors = at_errors(app)
        assert any("words.csv" in e for e in errors), errors
        assert _names(app) == before

    def test_error_cleared_by_a_good_load(self, app):
        _choose_upload(app)
        app.file_uploader(key=state.W_UPLOAD).set_value(("bad.csv", b"x,y\n1,a\n2,b\n", "text/csv"))
        app.run()
        assert at_errors(app)
        app.radio(key=state.W_SOURCE).set_value(sidebar.SOURCES[0]).run()
        app.selectbox(key=state.W_SAMPLE).set_value(list(loading.SAMPLES)[2]).run()
        assert not app.exception
        assert not at_errors(app)


class TestSettings:
    def test_apply_rebuilds_search(self, app):
        old = app.session_state[state.SESSION].stepper
        app.selectbox(key=state.W_METHOD).set_value("greedy")
        app.number_input(key=state.W_K).set_value(3)
        app.number_input(key=state.W_MAX_PARENTS).set_value(2)
        app.button(key=state.W_APPLY).click().run()
        assert not app.exception
        settings = app.session_state[state.SESSION].settings
        assert settings.method == "greedy" and settings.k == 3
        assert settings.max_parents == 2
        assert app.session_state[state.SESSION].stepper is not old

    def test_sigmoid_without_correction(self, app):
        app.selectbox(key=state.W_CPD).set_value("sigmoid")
        app.checkbox(key=state.W_CORRECTION).uncheck()
        app.button(key=state.W_APPLY).click().run()
        assert not app.exception
        model = app.session_state[state.SESSION].stepper.model
        assert model.cpd == "sigmoid" and model.correction is False
        assert app.session_state[state.SESSION].settings.correction is False

    def test_score_and_regulators(self, app):
        """Issue #11: the score and a pasted regulator list reach the search; absent names are a notice."""
        names = list(app.session_state[state.SESSION].dataset.names)
        app.selectbox(key=state.W_SCORE).set_value("ebic")
        app.text_area(key=state.W_REGULATORS).set_value("# TFs\n" + "\n".join(names[:5]) + "\nNOT_A_GENE\n")
        app.button(key=state.W_APPLY).click().run()
        assert not app.exception
        session = app.session_state[state.SESSION]
        assert session.settings.score == "ebic" and session.regulators == names[:5] + ["NOT_A_GENE"]
        assert session.stepper.score_choice.name == "ebic"
        assert session.stepper.constraints.may_parent.sum() == 5
        assert "1 of 6 candidate regulator(s) are not in the data" in (session.notice or "")
        for _ in range(3):
            session.step()
        assert {p for p, _ in session.stepper.edges()} <= set(range(len(names))) and all(
            names[p] in names[:5] for p, _ in session.stepper.edges()
        )

    def test_regulators_that_name_no_variable_are_refused(self, app):
        old = app.session_state[state.SESSION].stepper
        app.text_area(key=state.W_REGULATORS).set_value("nothing\nhere")
        app.button(key=state.W_APPLY).click().run()
        assert not app.exception
        assert any("none of the 2 candidate regulator" in e for e in at_errors(app))
        assert app.session_state[state.SESSION].stepper is old

    def test_rejected_setting_keeps_the_search(self, app):
        old = app.session_state[state.SESSION].stepper
        # multiplicative noise needs positive data; the default sample is standardized
        app.selectbox(key=state.W_CPD).set_value("multiplicative")
        app.button(key=state.W_APPLY).click().run()
        assert not app.exception
        assert any("positive" in e for e in at_errors(app))
        assert app.session_state[state.SESSION].settings.cpd == "linear"
        assert app.session_state[state.SESSION].stepper is old


def test_upload_with_missing_cells_loads_completed_with_a_banner(app):
    """Missing cells are no longer refused: the search runs on the data completed by the engine's
    structural EM, and the Home page says so (how many cells, in which column)."""
    _choose_upload(app)
    csv = b"a,b,c\n1,2,3\n2,,5\n3,5,4\n4,4,8\n5,7,9\n6,5,11\n"
    app.file_uploader(key=state.W_UPLOAD).set_value(("holes.csv", csv, "text/csv")).run()
    assert not app.exception
    assert not at_errors(app)
    assert _names(app) == ("a", "b", "c")
    session = app.session_state[state.SESSION]
    assert session.prepared.loaded.missing[1, 1] and not session.dataset.has_missing
    banner = " ".join(str(e.value) for e in app.info)
    assert "1 missing cell(s)" in banner and "in 1 of 3 variables: b (1)" in banner and "structural EM" in banner


class TestReviewFindings:
    def test_load_error_goes_away_when_the_loaded_data_is_chosen_again(self, app):
        _choose_upload(app)
        app.file_uploader(key=state.W_UPLOAD).set_value(("bad.csv", b"x,y\n1,a\n2,b\n", "text/csv")).run()
        assert at_errors(app)
        app.radio(key=state.W_SOURCE).set_value(sidebar.SOURCES[0]).run()  # the sample still loaded
        assert not app.exception
        assert not at_errors(app)
        assert app.session_state[state.SESSION].label == SACHS

    def test_upload_leaves_out_a_constant_variable_with_a_note(self, app):
        _choose_upload(app)
        csv = b"a,b,c,k\n1,2,3,7\n2,3,5,7\n3,5,4,7\n4,4,8,7\n5,7,9,7\n6,5,11,7\n"
        app.file_uploader(key=state.W_UPLOAD).set_value(("flat.csv", csv, "text/csv")).run()
        assert not app.exception
        assert not at_errors(app)
        assert _names(app) == ("a", "b", "c")
        assert any("constant variable(s) k" in n for n in app.session_state[state.SESSION].dataset.notes)

    def test_genes_in_rows_with_an_annotation_column(self, app):
        _choose_upload(app)
        app.radio(key=state.W_ORIENT).set_value(sidebar.ORIENTATIONS[1]).run()
        rows = ["gene,c1,c2,c3,c4,c5,note"]
        rows += [f"g{i},{i},{(i * 7) % 5},{(i * 3) % 4},{i % 2},{(i * 5) % 7},TF" for i in range(1, 6)]
        app.file_uploader(key=state.W_UPLOAD).set_value(("expr.csv", "\n".join(rows).encode(), "text/csv"))
        app.run()
        assert not app.exception
        assert not at_errors(app)
        assert _names(app) == ("g1", "g2", "g3", "g4", "g5")
        assert any("note" in n for n in app.session_state[state.SESSION].dataset.notes)


def test_comparison_stays_on_for_new_data(app):
    """Review finding: the compare toggle keeps its value across a data change, so the new
    session must keep the comparison too."""
    app.session_state[state.SESSION].set_compare(True)
    app.selectbox(key=state.W_SAMPLE).set_value(list(loading.SAMPLES)[2]).run()
    assert not app.exception
    session = app.session_state[state.SESSION]
    assert session.label == list(loading.SAMPLES)[2]
    assert session.compare and session.twin is not None

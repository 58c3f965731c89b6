"""A biologist's file and session in the explorer (issue #24): a file without a header row, a
regulator list carried to new data, the list named where settings are said and drawn in the
network, and exports that learn the same network again through the CLI."""

from __future__ import annotations

import json
import shutil

import numpy as np
import pytest
from conftest import APP, PAGES, ROOT, TIMEOUT, texts
from streamlit.testing.v1 import AppTest

from engine.cli import main
from engine.cli.rerun import REGULATOR_FILE, regulator_file_text, rerun_args
from engine.synth import random_network, sample
from explorer import actions, export, network_view, sidebar, state
from explorer.session import SearchSession


def _run_to_convergence(session) -> None:
    session.start_run(None)
    while session.run_chunk(5.0):
        pass


def _edges(result: dict) -> list[tuple[str, str]]:
    return sorted((e["parent"], e["child"]) for e in result["edges"])


@pytest.fixture(scope="module")
def headerless(tmp_path_factory):
    """Genes x samples as some pipelines write them: no header line, a gene id then quoted values."""
    values = np.asarray(sample(random_network(8, seed=11), 80, seed=12)) + 9.0
    path = tmp_path_factory.mktemp("lab") / "expr.tsv"
    path.write_text(
        "".join(f"G{g:03d}\t" + "\t".join(f'"{float(v)!r}"' for v in values[:, g]) + "\n" for g in range(8))
    )
    return path


def _upload(at, path, transpose=True):
    at.radio(key=state.W_SOURCE).set_value(sidebar.SOURCES[1]).run()
    if transpose:
        at.radio(key=state.W_ORIENT).set_value(sidebar.ORIENTATIONS[1]).run()
    at.file_uploader(key=state.W_UPLOAD).set_value((path.name, path.read_bytes(), "text/plain")).run()
    assert not at.exception


class TestHeaderlessUpload:
    def test_refused_then_read_with_one_click(self, headerless):
        at = AppTest.from_file(str(APP), default_timeout=TIMEOUT).run()
        _upload(at, headerless)
        errors = texts(at.error)
        assert any("no header row" in e and "'G000'" in e and "First line is data" in e for e in errors), errors
        assert at.session_state[state.SESSION].label != headerless.name  # nothing lost silently: not loaded
        at.button(key="w_fix_no_header").click().run()
        assert not at.exception and not texts(at.error)
        session = at.session_state[state.SESSION]
        assert at.checkbox(key=state.W_NO_HEADER).value is True
        assert session.dataset.names == tuple(f"G{g:03d}" for g in range(8))  # every gene
        assert session.dataset.instance_labels[:2] == ("sample1", "sample2") and session.dataset.n_samples == 80
        assert session.source["no_header"] is True and session.source["transpose"] is True

    def test_the_next_file_is_checked_again(self, headerless, tmp_path):
        at = AppTest.from_file(str(APP), default_timeout=TIMEOUT).run()
        _upload(at, headerless)
        at.button(key="w_fix_no_header").click().run()
        assert at.session_state[state.SESSION].dataset.n_vars == 8
        headed = tmp_path / "headed.tsv"  # genes x samples with a header line
        values = np.asarray(sample(random_network(6, seed=5), 40, seed=6))
        head = "gene\t" + "\t".join(f"s{j + 1}" for j in range(40)) + "\n"
        headed.write_text(
            head + "".join(f"g{i}\t" + "\t".join(f"{v:.5f}" for v in values[:, i]) + "\n" for i in range(6))
        )
        at.file_uploader(key=state.W_UPLOAD).set_value((headed.name, headed.read_bytes(), "text/plain")).run()
        assert not at.exception and not texts(at.error)
        assert at.checkbox(key=state.W_NO_HEADER).value is False
        session = at.session_state[state.SESSION]
        assert session.dataset.names == ("g0", "g1", "g2", "g3", "g4", "g5") and session.dataset.n_samples == 40

    def test_keep_the_header_is_the_other_click(self, tmp_path):
        path = tmp_path / "plain.csv"  # samples in rows, no id column, CSV
        values = np.asarray(sample(random_network(5, seed=2), 60, seed=3))
        path.write_text("".join(",".join(repr(float(v)) for v in row) + "\n" for row in values))
        at = AppTest.from_file(str(APP), default_timeout=TIMEOUT).run()
        _upload(at, path, transpose=False)
        assert any("V1..V5" in e for e in texts(at.error))
        at.button(key="w_fix_keep_header").click().run()
        assert not at.exception and not texts(at.error)
        assert at.session_state[state.SESSION].dataset.n_samples == 59  # the user's call, recorded
        assert at.session_state[state.SESSION].source["header"] is True
        at.checkbox(key=state.W_NO_HEADER).check().run()
        assert at.session_state[state.SESSION].dataset.names == ("V1", "V2", "V3", "V4", "V5")


def genes_x_conditions_headerless(path, n_genes=40, n_conditions=24):
    """Arabidopsis genes x conditions without a header line (``AT1G00010  9.93  10.2 ...``)."""
    values = np.asarray(sample(random_network(n_genes, seed=21), n_conditions, seed=22)) + 9.0
    ids = [f"AT1G{10 * (g + 1):05d}" for g in range(n_genes)]
    rows = (f"{gene}\t" + "\t".join(f"{v:.5f}" for v in values[:, g]) for g, gene in enumerate(ids))
    path.write_text("\n".join(rows) + "\n")
    return path, ids


class TestHeaderlessTurnedRound:
    """The same headerless genes x conditions file read turned round in the app (the Transpose button
    after 'First line is data') and by the CLI (--no-header --transpose): the same names, instances
    sample1..sample24 and the gene ids as variables (decisions: --no-header)."""

    def test_transpose_button_names_instances_as_the_cli_does(self, tmp_path, capsys):
        path, ids = genes_x_conditions_headerless(tmp_path / "expr.tsv")
        samples = tuple(f"sample{i + 1}" for i in range(24))
        at = AppTest.from_file(str(APP), default_timeout=TIMEOUT).run()
        _upload(at, path, transpose=False)
        at.button(key="w_fix_no_header").click().run()
        assert not at.exception and not texts(at.error)
        assert at.session_state[state.SESSION].dataset.names[:2] == ("V1", "V2")  # as loaded: genes in rows
        at.button(key="w_home_transpose").click().run()
        assert not at.exception and not texts(at.error)
        session = at.session_state[state.SESSION]
        assert session.dataset.names == tuple(ids) and session.dataset.instance_labels == samples
        assert session.dataset.generated_names == "instances"  # the flag moved with the names (#22)
        said = "the 24 columns (instances) are named sample1..sample24"
        assert any(said in n for n in session.dataset.notes)
        settings = export.export_settings(session)
        assert settings["no_header"] is True and settings["transpose"] is True
        # the CLI on the same file: the same variables, and the same instance names said on stderr
        out = tmp_path / "cli.json"
        assert main(["learn", str(path), "--no-header", "--transpose", "--out", str(out)]) == 0
        assert json.loads(out.read_text())["variables"] == list(ids)
        assert said in capsys.readouterr().err


def test_regulator_list_refused_before_transpose_applies_after(tmp_path):
    """A newcomer's order: the gene-id list is applied while the genes are still rows (refused, with
    the fix named); the Transpose button then applies it and the stale refusal goes."""
    path, ids = genes_x_conditions_headerless(tmp_path / "expr.tsv")
    path.write_text("gene\t" + "\t".join(f"heat_{t}min" for t in range(5, 125, 5)) + "\n" + path.read_text())
    at = AppTest.from_file(str(APP), default_timeout=TIMEOUT).run()
    _upload(at, path, transpose=False)
    listed = "\n".join(ids[:8]).encode()
    at.file_uploader(key=state.W_REGULATOR_FILE).set_value(("tfs.txt", listed, "text/plain"))  # in the form
    at.button(key=state.W_APPLY).click().run()
    refused = [e for e in texts(at.error) if "Settings not applied" in e]
    assert refused and "8 of them label the data's rows" in refused[0] and "Transpose button" in refused[0]
    at.button(key="w_home_transpose").click().run()
    assert not at.exception and not texts(at.error)
    session = at.session_state[state.SESSION]
    assert session.transposed and session.regulators == ids[:8]
    names = session.dataset.names
    assert [names[i] for i in session.stepper.cols] == sorted(ids[:8], key=names.index)  # in force in the search
    assert any("applied to the turned data: 8 of 8 listed names found" in t for t in texts(at.sidebar.info))
    assert any("Transposed" in t for t in texts(at.info))  # the transpose is still the last action: undoable
    at.button(key="w_home_undo_transpose").click().run()
    session = at.session_state[state.SESSION]
    assert not at.exception and not session.transposed and session.regulators is None  # as before the turn
    assert session.stepper.cols is None


class TestRegulatorList:
    def test_applied_list_named_with_counts(self):
        at = AppTest.from_file(str(APP), default_timeout=TIMEOUT).run()
        names = list(at.session_state[state.SESSION].dataset.names)
        at.text_area(key=state.W_REGULATORS).set_value("\n".join([*names[:3], "NOT_MEASURED"]))
        at.button(key=state.W_APPLY).click().run()
        said = "regulators: 3 of 4 listed names found"
        assert said in (at.session_state[state.SESSION].notice or "")
        assert any(said in t for t in texts(at.caption))  # the Home page's settings line
        html = network_view.search_network_html(names, [(0, 1, 0.5)], {}, regulators=names[:3])
        assert "candidate regulator (from the regulator list)" in html and '"shape": "ellipse"' in html
        assert "candidate regulator" not in network_view.search_network_html(names, [(0, 1, 0.5)], {})

    def test_new_data_drop_or_keep_the_list(self):
        at = AppTest.from_file(str(APP), default_timeout=TIMEOUT).run()
        at.text_area(key=state.W_REGULATORS).set_value("Raf\nMek\nPKC")
        at.button(key=state.W_APPLY).click().run()
        # synthetic data (X1, X2...): no name of the list is a variable -> removed, said once
        at.radio(key=state.W_SOURCE).set_value(sidebar.SOURCES[2]).run()
        assert not at.exception
        session = at.session_state[state.SESSION]
        assert session.regulators is None and at.text_area(key=state.W_REGULATORS).value == ""
        assert any("regulator list (3 names) was removed" in w for w in texts(at.warning))
        at.number_input(key=state.W_K).set_value(3)
        at.button(key=state.W_APPLY).click().run()  # Apply is no longer blocked by the old list
        assert not texts(at.error) and at.session_state[state.SESSION].settings.k == 3
        # a list that still names some variables is kept, in force, with the count found
        at.text_area(key=state.W_REGULATORS).set_value("X1\nX2\nRaf")
        at.button(key=state.W_APPLY).click().run()
        at.number_input(key=state.W_SYN_N).set_value(12)
        at.button(key=state.W_SYN_GO).click().run()
        session = at.session_state[state.SESSION]
        assert session.dataset.n_vars == 12 and session.regulators == ["X1", "X2", "Raf"]
        assert session.stepper.constraints.may_parent.sum() == 2
        assert any("2 of 3 listed names found" in i for i in texts(at.info))
        assert not (session.notice or "")  # said in one place: the note under the list


class TestExportRoundTrip:
    def test_headerless_upload_with_regulators_learns_again(self, headerless, tmp_path, monkeypatch):
        at = AppTest.from_file(str(APP), default_timeout=TIMEOUT).run()
        _upload(at, headerless)
        at.button(key="w_fix_no_header").click().run()
        at.number_input(key=state.W_K).set_value(3)
        at.text_area(key=state.W_REGULATORS).set_value("G001\nG002\nG003\nG005\nNOT_MEASURED")
        at.button(key=state.W_APPLY).click().run()
        session = at.session_state[state.SESSION]
        _run_to_convergence(session)
        at.switch_page(str(PAGES / "truth.py")).run()
        assert not at.exception
        exported = export.export_dict(session)
        # shown on the page, one option per line: the same command
        assert any(c.value.replace(" \\\n    ", " ") == exported["rerun"] for c in at.code), [c.value for c in at.code]
        s = exported["settings"]
        assert s["no_header"] and s["transpose"] and s["k"] == 3 and s["data"] == "expr.tsv"
        assert s["regulators"] == ["G001", "G002", "G003", "G005", "NOT_MEASURED"] and s["max_iter"] is None
        assert exported["stats"]["steps"] == session.stepper.n_iter > 0
        # the command, with the files it names, in a folder of its own
        monkeypatch.chdir(tmp_path)
        shutil.copy(headerless, tmp_path / "expr.tsv")
        (tmp_path / REGULATOR_FILE).write_text(regulator_file_text(s))
        assert main([*rerun_args(s), "--out", "again.json", "--quiet"]) == 0
        again = json.loads((tmp_path / "again.json").read_text())
        assert _edges(again) == _edges(exported) and _edges(exported)
        assert again["score"]["value"] == pytest.approx(exported["score"]["value"], rel=1e-9)

    def test_an_uploaded_regulator_file_is_the_one_the_command_names(self, headerless, tmp_path, monkeypatch):
        """A list uploaded as a file (nothing pasted): the command names that file, the download is named so,
        and the command run beside the user's own file learns the same network (newcomer walk: it named
        ``regulators.txt``). With names pasted too, the list is no longer the file: the default name."""
        at = AppTest.from_file(str(APP), default_timeout=TIMEOUT).run()
        _upload(at, headerless)
        at.button(key="w_fix_no_header").click().run()
        mine = b"# my TFs\nG001\ng002\nG003\nG005\n"
        at.file_uploader(key=state.W_REGULATOR_FILE).set_value(("my_tfs.txt", mine, "text/plain"))
        at.button(key=state.W_APPLY).click().run()
        session = at.session_state[state.SESSION]
        assert not at.exception and session.regulators == ["G001", "G002", "G003", "G005"]
        _run_to_convergence(session)
        exported = export.export_dict(session)
        assert (
            exported["settings"]["regulators_file"] == "my_tfs.txt" and "--regulators my_tfs.txt" in exported["rerun"]
        )
        at.switch_page(str(PAGES / "truth.py")).run()
        assert not at.exception
        (regs,) = [d.proto for d in at.get("download_button") if "Regulator" in d.proto.label]
        assert "w_download_my_tfs.txt" in regs.id  # keyed by the file name it downloads as
        monkeypatch.chdir(tmp_path)
        shutil.copy(headerless, tmp_path / "expr.tsv")
        (tmp_path / "my_tfs.txt").write_bytes(mine)  # the user's own file, as uploaded
        assert main([*rerun_args(exported["settings"]), "--out", "again.json", "--quiet"]) == 0
        assert _edges(json.loads((tmp_path / "again.json").read_text())) == _edges(exported)
        at.text_area(key=state.W_REGULATORS).set_value("G007")
        at.button(key=state.W_APPLY).click().run()
        session = at.session_state[state.SESSION]
        assert "G007" in session.regulators and "regulators_file" not in export.export_settings(session)
        assert f"--regulators {REGULATOR_FILE}" in export.export_dict(session)["rerun"]

    def test_sample_stopped_early_learns_the_same_moves(self, tmp_path):
        at = AppTest.from_file(str(APP), default_timeout=TIMEOUT).run()
        session = at.session_state[state.SESSION]
        for _ in range(3):
            session.step()
        exported = export.export_dict(session)
        assert exported["settings"]["max_iter"] == 3 and "--max-steps 3" in exported["rerun"]
        assert exported["settings"]["data"].startswith("sample_data/")
        out = tmp_path / "again.json"
        args = rerun_args(exported["settings"], data=str(ROOT / exported["settings"]["data"]))
        assert main([*args, "--out", str(out), "--quiet"]) == 0
        assert _edges(json.loads(out.read_text())) == _edges(exported)


class TestAcceptedHidden:
    @pytest.fixture(scope="class")
    @classmethod
    def accepted(cls, small_data):
        dataset, _ = small_data
        session = SearchSession(dataset, None, "small synthetic network")
        _run_to_convergence(session)
        moves = session.stepper.n_iter
        actions.accept_hidden(session, session.propose_hidden(1)[0])
        return session, moves

    def test_export_counts_moves_and_carries_the_report(self, accepted):
        session, moves = accepted
        exported = export.export_dict(session)
        assert exported["stats"]["steps"] >= moves > 0  # it said 0 after Accept
        h = exported["hidden"][0]
        for field in ("estimated_gain", "realized_gain", "baseline_score", "score_after", "closest_observed", "report"):
            assert field in h, field
        assert h["children"] and len(h["profile"]) == session.dataset.n_samples
        assert "accepted by hand" in exported["rerun_note"] and exported["settings"]["hidden_accepted"] == [h["name"]]

    def test_truth_page_without_reference_says_only_that(self, accepted):
        session, _ = accepted
        at = AppTest.from_file(str(PAGES / "truth.py"), default_timeout=TIMEOUT)
        at.session_state[state.SESSION] = session
        at.run()
        assert not at.exception
        assert any("No true network is known" in i for i in texts(at.info))
        assert not any("not scored" in c for c in texts(at.caption))


class TestExportSettings:
    def test_interventions_sample_learns_the_same_moves(self, tmp_path):
        from explorer import loading

        label = next(k for k in loading.SAMPLES if "nine conditions" in k)
        column, targets = loading.sample_design(label)
        design = (column, targets, False)
        dataset, truth = loading.load_sample(label, True, design)
        session = SearchSession(dataset, truth, label)
        session.source = loading.sample_source(label, True, design)
        for _ in range(4):
            session.step()
        exported = export.export_dict(session)
        s = exported["settings"]
        assert s["condition"] == "condition" and s["targets"] == "sample_data/sachs2005_targets.csv"
        args = [ROOT / a if a.startswith("sample_data/") else a for a in rerun_args(s)]
        assert main([*map(str, args), "--out", str(tmp_path / "a.json"), "--quiet"]) == 0
        assert _edges(json.loads((tmp_path / "a.json").read_text())) == _edges(exported)

    def test_transpose_button_flips_the_recorded_orientation(self, headerless):
        from explorer import loading

        dataset = loading.parse_upload(headerless.read_bytes(), headerless.name, True, True, None, "none")
        session = SearchSession(dataset, None, headerless.name)
        session.source = loading.upload_source(headerless.name, True, True, None, "none")
        assert export.export_settings(session)["transpose"] is True
        actions.transpose_data(session)
        assert export.export_settings(session)["transpose"] is False
        assert "--transpose" not in export.export_dict(session)["rerun"]

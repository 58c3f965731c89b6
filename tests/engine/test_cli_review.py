"""The CLI as a biologist uses it (a review of ``learn --regulators ... --hidden auto``, #22):
an odd condition named, the hidden-variable search said as it goes, capped name lists, the
counts and score keys saying what they hold, re-runs from another folder, ``score`` reading the
data as the model did, a header line in a regulator table, and bootstrap's regulator summary."""

from __future__ import annotations

import json
import math
import re

import numpy as np
import pandas as pd
import pytest

from engine.cli import main
from engine.cli.live import cap_lists, readable

N_REG = 20


def odd_condition_csv(tmp_path, *, odd: int = 100, n: int = 160, m: int = 30, seed: int = 0):
    """Conditions in rows (labelled ``cond01..``), a 6-gene module driven by an unmeasured factor,
    condition ``cond09`` 6 sd high in ``odd`` other genes, the last :data:`N_REG` genes the listed
    regulators (as in test_hidden_leverage's odd-sample table)."""
    rng = np.random.default_rng(seed)
    x = rng.normal(size=(m, n))
    h = rng.normal(size=m)
    x[:, :6] = 0.85 * h[:, None] + 0.5 * rng.normal(size=(m, 6))
    x[8, 20 : 20 + odd] += 6.0
    names = [f"g{j:03d}" for j in range(n)]
    frame = pd.DataFrame(x, columns=names, index=[f"cond{i + 1:02d}" for i in range(m)]).rename_axis("condition")
    path = tmp_path / "odd.csv"
    frame.to_csv(path)
    regs = tmp_path / "tfs.txt"
    regs.write_text("\n".join(names[-N_REG:]) + "\n")
    return path, regs, names


@pytest.fixture(scope="module")
def odd_run(tmp_path_factory):
    """``learn --hidden auto`` on the odd-condition table: (JSON result, stderr lines)."""
    tmp = tmp_path_factory.mktemp("odd")
    path, regs, _ = odd_condition_csv(tmp)
    out = tmp / "odd.json"
    import contextlib
    import io

    err = io.StringIO()
    with contextlib.redirect_stderr(err):
        rc = main(["learn", str(path), "--regulators", str(regs), "--hidden", "auto", "--max-hidden", "2",
                   "--out", str(out)])  # fmt: skip
    assert rc == 0, err.getvalue()
    return json.loads(out.read_text()), err.getvalue().splitlines()


class TestOddCondition:
    def test_flagged_proposal_is_named_on_stderr_and_in_the_json(self, odd_run):
        result, lines = odd_run
        flagged = result["flagged_proposals"]
        assert flagged and all(p["flagged_instances"] == ["cond09"] for p in flagged)
        big = max(flagged, key=lambda p: p["n_members"])
        assert big["n_members"] == len(big["members"]) >= 20 and big["leverage"] > 0.5
        spiked = {f"g{j:03d}" for j in range(20, 120)}
        assert len(set(big["members"]) & spiked) >= 0.9 * big["n_members"]
        (live,) = [line for line in lines if line.startswith("  - hidden variables: set aside a proposal")]
        assert "'cond09' holds most of its profile's energy" in live and "so it is not tried" in live
        (note,) = [line for line in lines if line.startswith("note:") and "set aside" in line]
        assert "'cond09'" in note and "flagged_proposals" in note and f"{big['leverage']:.2f}" in note
        assert "to learn without it" in note and "--drop cond09" in note  # how to leave it out (session 28)
        # the kept regulator is the module's, not the odd condition
        assert result["hidden"] and all(h["flagged_instances"] == [] for h in result["hidden"])

    def test_the_drop_it_suggests_leaves_the_condition_out(self, tmp_path):
        """The note's ``--drop cond09`` works on this samples-in-rows file (session 29): the row is left
        out, the run says so, and no proposal is set aside for that condition any more."""
        import contextlib
        import io

        path, regs, _ = odd_condition_csv(tmp_path)
        out, err = tmp_path / "without.json", io.StringIO()
        with contextlib.redirect_stderr(err):
            rc = main(["learn", str(path), "--regulators", str(regs), "--hidden", "auto", "--max-hidden", "2",
                       "--drop", "cond09", "--out", str(out)])  # fmt: skip
        assert rc == 0, err.getvalue()
        assert "dropped instance(s) cond09" in err.getvalue()
        result = json.loads(out.read_text())
        assert all("cond09" not in p["flagged_instances"] for p in result.get("flagged_proposals") or [])
        assert result["settings"]["drop"] == ["cond09"]


class TestLiveProgress:
    def test_hidden_lines_are_said_before_the_search_returns(self, tmp_path, capsys, monkeypatch):
        """Each line of the hidden-variable search reaches stderr as it is said, not after fit."""
        import sys

        from engine.learn import IdealParentSearch

        fit = IdealParentSearch.fit

        def fit_then_mark(self, *args, **kwargs):
            out = fit(self, *args, **kwargs)
            sys.stderr.write("FIT RETURNED\n")
            return out

        monkeypatch.setattr(IdealParentSearch, "fit", fit_then_mark)
        path, regs, _ = odd_condition_csv(tmp_path, odd=0, n=60)
        assert main(["learn", str(path), "--regulators", str(regs), "--hidden", "auto", "--max-hidden", "1"]) == 0
        err = capsys.readouterr().err.splitlines()
        end = err.index("FIT RETURNED")
        live = [i for i, line in enumerate(err) if line.startswith("  - hidden variables:")]
        assert len(live) >= 3 and max(live) < end
        assert any("network without hidden variables" in err[i] for i in live)
        tries = [err[i] for i in live if "trying proposal 1:" in err[i]]
        assert len(tries) == 1 and "variables (" in tries[0] and "estimated gain" in tries[0]

    def test_quiet_silences_them(self, tmp_path, capsys):
        path, regs, _ = odd_condition_csv(tmp_path, odd=0, n=60)
        args = ["learn", str(path), "--regulators", str(regs), "--hidden", "auto", "--max-hidden", "1", "--quiet"]
        assert main(args) == 0
        assert capsys.readouterr().err == ""


class TestCappedLists:
    def test_long_name_lists_are_capped(self):
        names = [f"b{i:04d}" for i in range(220)]
        line = f"adding H2 on {', '.join(names)} did not improve the observed EBIC (-87608.86 <= -87581.36)"
        short = readable(line)
        assert "b0007, ... and 212 more did not improve" in short and "b0008" not in short
        assert short.endswith("(-87,608.86 <= -87,581.36)")
        assert cap_lists("H1 -> a, b, c") == "H1 -> a, b, c"
        many = ", ".join(f"X{i}" for i in range(12))
        assert (
            cap_lists(f"H1 -> {many}; H2 -> X7, X14")
            == "H1 -> X0, X1, X2, X3, X4, X5, X6, X7, ... and 4 more; H2 -> X7, X14"
        )
        capped = "a1, a2, a3, a4, a5, a6, a7, a8, ... and 3 more"  # the engine's own cap is kept
        assert cap_lists(capped) == capped

    def test_no_stderr_line_lists_more_than_a_few_names(self, odd_run):
        _, lines = odd_run
        assert max(line.count(", g") for line in lines) <= 8


class TestCountsAndKeys:
    def test_moves_and_candidates_say_what_they_count(self, odd_run):
        result, lines = odd_run
        (done,) = [line for line in lines if line.startswith("done:")]
        assert f"the final structural EM: {result['stats']['steps']:,} moves" in done
        assert "not counted" in done and "final structural EM" in result["stats"]["message"]
        said = [line for line in lines if line.startswith("score:")][0]
        assert f"{N_REG} candidate parents" in said
        n_hidden = len(result["hidden"])
        assert result["score"]["n_candidates"] == N_REG + n_hidden
        (note,) = [line for line in lines if "candidate parents in the result" in line]
        assert f"counts {N_REG + n_hidden} candidate parents" in note and f"the {N_REG} said above" in note

    def test_score_bic_is_the_plain_bic_in_learn_and_score_alike(self, odd_run, tmp_path, capsys):
        """``score.bic`` was the EBIC EM maximized in learn's JSON and the plain BIC in score's."""
        result, _ = odd_run
        sc = result["score"]
        assert sc["name"] == "ebic" and sc["value"] < sc["bic"] < sc["loglik"]
        path, _, _ = odd_condition_csv(tmp_path)
        model = tmp_path / "m.json"
        model.write_text(json.dumps(result))
        assert main(["score", str(path), "--model", str(model)]) == 0
        scored = json.loads(capsys.readouterr().out)
        assert scored["bic"] == pytest.approx(sc["bic"], rel=1e-9)
        assert scored["score_name"] == "ebic" and scored["score"] == pytest.approx(sc["value"], rel=1e-9)
        # the plain BIC: observed log-likelihood less (log M / 2) per parameter of every family
        n_par = sum(len(f["parents"]) + 2 for f in result["families"].values())
        assert sc["bic"] == pytest.approx(sc["loglik"] - 0.5 * math.log(30) * n_par, rel=1e-12)


def genes_in_rows(tmp_path, name="expr.tsv", n_genes=12, m=40, seed=3):
    """A genes x conditions TSV with a text column, as a lab writes it; the first 4 genes are TFs."""
    rng = np.random.default_rng(seed)
    x = rng.normal(size=(m, n_genes))
    x[:, 4:8] += x[:, [0]] * 0.9  # tf0 drives g4..g7
    genes = [f"tf{j}" if j < 4 else f"g{j}" for j in range(n_genes)]
    frame = pd.DataFrame(x.T, index=genes, columns=[f"c{i:02d}" for i in range(m)])
    frame.insert(0, "description", ["transcription factor" if j < 4 else "gene" for j in range(n_genes)])
    path = tmp_path / name
    frame.rename_axis("gene_id").to_csv(path, sep="\t")
    return path, frame


class TestRerunFromAnotherFolder:
    def test_rerun_names_absolute_paths(self, tmp_path, capsys, monkeypatch):
        work, other = tmp_path / "work", tmp_path / "elsewhere"
        work.mkdir(), other.mkdir()
        genes_in_rows(work)
        (work / "tfs.txt").write_text("tf0\ntf1\ntf2\ntf3\n")
        monkeypatch.chdir(work)
        args = ["learn", "expr.tsv", "--transpose", "--drop", "description", "--regulators", "tfs.txt"]
        assert main([*args, "--out", "first.json", "--quiet"]) == 0
        first = json.loads((work / "first.json").read_text())
        s = first["settings"]
        assert s["data"] == "expr.tsv" and s["regulators_file"] == "tfs.txt"  # the names, as before
        assert s["paths"] == {"data": str(work / "expr.tsv"), "regulators": str(work / "tfs.txt")}
        assert f"learn {work / 'expr.tsv'} " in first["rerun"] and f"--regulators {work / 'tfs.txt'}" in first["rerun"]
        monkeypatch.chdir(other)
        from engine.cli.rerun import rerun_args

        assert main([*rerun_args(s), "--out", "again.json", "--quiet"]) == 0
        again = json.loads((other / "again.json").read_text())
        assert again["edges"] == first["edges"] and again["settings"] == s


class TestScoreReadsAsTheModel:
    def test_model_settings_are_applied_and_said(self, tmp_path, capsys):
        path, frame = genes_in_rows(tmp_path)
        model = tmp_path / "m.json"
        assert main(["learn", str(path), "--transpose", "--drop", "description", "--out", str(model), "--quiet"]) == 0
        assert main(["score", str(path), "--model", str(model), "--transpose", "--drop", "description"]) == 0
        explicit = json.loads(capsys.readouterr().out)
        assert main(["score", str(path), "--model", str(model)]) == 0
        out = capsys.readouterr()
        assert "read as the model's data were: --transpose --drop description (the model's settings)" in out.err
        assert json.loads(out.out)["loglik"] == pytest.approx(explicit["loglik"], rel=1e-12)

    def test_held_out_data_the_other_way_round_are_not_turned(self, tmp_path, capsys):
        """Held-out conditions in rows (no text column): the model's --transpose would be wrong."""
        path, frame = genes_in_rows(tmp_path)
        model = tmp_path / "m.json"
        assert main(["learn", str(path), "--transpose", "--drop", "description", "--out", str(model), "--quiet"]) == 0
        held = tmp_path / "held.csv"
        frame.drop(columns="description").T.rename_axis("condition").to_csv(held)
        assert main(["score", str(held), "--model", str(model)]) == 0
        out = capsys.readouterr()
        assert "--transpose" not in out.err and json.loads(out.out)["n_samples"] == 40

    def test_a_dropped_instance_row_is_dropped_again(self, tmp_path, capsys):
        """Session 29: a samples-in-rows file learned without a failed array is scored without it."""
        path, frame = genes_in_rows(tmp_path)
        rows = tmp_path / "rows.csv"
        frame.drop(columns="description").T.rename_axis("condition").to_csv(rows)
        odd = str(frame.columns[3])
        model = tmp_path / "m.json"
        assert main(["learn", str(rows), "--drop", odd, "--out", str(model), "--quiet"]) == 0
        assert json.loads(model.read_text())["score"]["n_samples"] == 39
        assert main(["score", str(rows), "--model", str(model)]) == 0
        out = capsys.readouterr()
        assert f"--drop {odd} (the model's settings)" in out.err and json.loads(out.out)["n_samples"] == 39


class TestRegulatorHeader:
    def test_a_header_word_is_skipped_and_said(self, tmp_path, capsys):
        path, _ = genes_in_rows(tmp_path)
        regs = tmp_path / "tfs.tsv"
        regs.write_text("regulator\tfamily\ntf0\tHTH\ntf1\tHTH\ntf2\tbZIP\ntf3\tbZIP\n")
        out = tmp_path / "r.json"
        assert main(["learn", str(path), "--transpose", "--drop", "description", "--regulators", str(regs),
                     "--out", str(out)]) == 0  # fmt: skip
        err = capsys.readouterr().err
        assert "tfs.tsv: its first line is a header, skipped ('regulator' names a column)" in err
        assert "not in the data" not in err  # no absent-name note for the header
        assert json.loads(out.read_text())["settings"]["regulators"] == ["tf0", "tf1", "tf2", "tf3"]

    def test_header_by_the_data_and_a_plain_list_left_alone(self, tmp_path):
        from engine.io.regulators import header_line

        data = ["tf0", "tf1", "tf2", "tf3", "g4"]
        assert "not a variable of the data while 4 of the other 4" in header_line(
            "TF list,source\n" + "tf0,a\ntf1,a\ntf2,b\ntf3,b\n", data
        )
        assert header_line("fnr\ntf0\ntf1\ntf2\n", data) is None  # an unmeasured TF first: a name, not a header
        assert header_line("tf0\tHTH\ntf1\tHTH\n", data) is None
        assert header_line("Gene ID,x\nzz1,a\nzz2,b\n", data) is not None  # a column word, whatever the rest


class TestBootstrapSummary:
    def test_only_regulators_above_the_threshold_are_listed(self, capsys):
        from types import SimpleNamespace

        from engine.bootstrap import RegulatorSupport
        from engine.cli.reports import report_support

        regs = [RegulatorSupport("R1", 4 / 6, ["a"], {"a": 1.0}, [0, 1, 2, 3])]
        regs += [RegulatorSupport(f"R{k}", 1 / 6, ["b"], {"b": 1.0}, [4]) for k in range(2, 10)]
        report_support(SimpleNamespace(regulators=regs, replicates=6, threshold=0.5), quiet=False)
        err = capsys.readouterr().err.splitlines()
        assert err[0].startswith("hidden regulators: 9 matched") and err[1].startswith("  R1: support 0.67")
        assert (
            err[2] == "  ... and 8 more in the JSON ('hidden'), 8 of them with support below 0.50 "
            "(the averaged network's threshold)"
        )
        assert len(err) == 3
        report_support(SimpleNamespace(regulators=regs[1:], replicates=6, threshold=0.5), quiet=False)
        assert capsys.readouterr().err.splitlines()[1].startswith("  R2: support 0.17")  # the best one all the same

    def test_absent_regulators_are_said_once_not_per_replicate(self, tmp_path, capsys):
        path, _ = genes_in_rows(tmp_path)
        regs = tmp_path / "tfs.txt"
        regs.write_text("tf0\ntf1\nfnr\n")
        args = ["bootstrap", str(path), "--transpose", "--drop", "description", "--regulators", str(regs)]
        assert main([*args, "--replicates", "2", "--workers", "1", "--out", str(tmp_path / "b.json")]) == 0
        err = capsys.readouterr().err
        assert err.count("1 of 3 candidate regulator(s) are not in the data") == 1
        assert "(in some replicates) 1 of 3" not in err


class TestWording:
    def test_learn_help_shows_the_biologists_command(self, capsys):
        assert main(["learn", "--help"]) == 0
        out = capsys.readouterr().out
        assert "learn expr.tsv --transpose --drop description --regulators tfs.txt --hidden auto \\" in out

    def test_transpose_hints_name_the_flag(self, tmp_path, capsys):
        path, _ = genes_in_rows(tmp_path)
        assert main(["learn", str(path), "--drop", "description", "--max-steps", "1"]) == 0
        err = capsys.readouterr().err
        assert "load with transpose: CLI --transpose)" in err
        assert main(["learn", str(path), "--max-steps", "1"]) == 2
        assert "load with transpose (CLI: --transpose)." in capsys.readouterr().err

    def test_hidden_report_wording_and_separators(self, odd_run):
        _, lines = odd_run
        kept = [line for line in lines if "score change estimated" in line]
        assert kept and all("from the best network found without H" in line for line in kept)
        assert not any("without it found" in line for line in lines)
        scores = [line for line in lines if "observed EBIC" in line or "EBIC -" in line]
        assert scores and all(not re.search(r"-\d{4,}\.\d", line) for line in scores)

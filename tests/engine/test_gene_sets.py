"""Reading gene-set files (GMT, two-column tables) and matching them to the data (issue #23)."""

from __future__ import annotations

import pytest

from engine.exceptions import DataValidationError
from engine.io.gene_sets import gene_sets_from_bytes, match_gene_sets, parse_gene_sets, read_gene_sets

MSIGDB_LIKE = (
    "HALLMARK_A\thttp://www.gsea-msigdb.org/gsea/msigdb/HALLMARK_A\tG1\tG2\tG3\tNOT_MEASURED\r\n"
    "\r\n"
    "# a comment\r\n"
    "HALLMARK_B\t> a description\tG3\tG4\tG4\r\n"
    "EMPTY_SET\tna\r\n"
    "HALLMARK_A\tna\tG5\r\n"
    "ONLY_UNKNOWN\tna\tX1\tX2\r\n"
)


class TestParseGMT:
    def test_real_file_quirks_are_notes_not_errors(self, tmp_path):
        path = tmp_path / "h.all.v2023.symbols.gmt"
        path.write_bytes(b"\xef\xbb\xbf" + MSIGDB_LIKE.encode())  # BOM and Windows line endings
        gs = read_gene_sets(path)
        assert gs.format == "GMT"
        assert gs.names == ["HALLMARK_A", "HALLMARK_B", "ONLY_UNKNOWN"]
        assert gs.genes[0] == ("G1", "G2", "G3", "NOT_MEASURED", "G5")  # duplicate name: merged
        assert gs.genes[1] == ("G3", "G4")  # duplicate gene: once
        notes = " | ".join(gs.notes)
        assert "2 blank or comment line(s) skipped" in notes
        assert "1 set name(s) appear more than once" in notes and "'HALLMARK_A'" in notes
        assert "1 repeated gene(s) within sets counted once" in notes
        assert "1 set(s) without genes left out" in notes and "'EMPTY_SET'" in notes
        assert not any("\r" in g for genes in gs.genes for g in genes)

    def test_unknown_genes_counted_in_one_note(self):
        gs = parse_gene_sets(MSIGDB_LIKE, source="x.gmt", name="x.gmt")
        m = match_gene_sets(gs, ["G1", "G2", "G3", "G4", "G5", "G6"])
        assert list(m.sizes) == [4, 2, 0]
        assert m.n_tested == 2
        absent = [n for n in m.notes if "not variables of the data" in n]
        assert len(absent) == 1 and absent[0].startswith("3 of the 8 genes")
        assert any("1 set(s) have no gene in the data" in n and "ONLY_UNKNOWN" in n for n in m.notes)
        assert m.set_genes(0) == ["G1", "G2", "G3", "G5"]

    def test_tab_file_without_gmt_extension(self):
        gs = parse_gene_sets("S1\tna\ta\tb\tc\nS2\tna\td\n", source="sets.txt", name="sets.txt")
        assert gs.format == "GMT" and gs.genes == [("a", "b", "c"), ("d",)]

    def test_enrichr_library_with_weights_and_empty_descriptions(self):
        gs = parse_gene_sets("STAT3 ENCODE\t\tSOCS3,1.0\tJUNB,0.5\n", source="x.txt", name="ENCODE_TF.gmt")
        assert gs.genes == [("SOCS3", "JUNB")]
        assert any("2 gene weight(s)" in n for n in gs.notes)


class TestParseTable:
    @pytest.mark.parametrize(
        "text",
        [
            "set,gene\nS1,a\nS1,b\nS2,c\n",
            "S1,a\nS1,b\nS2,c\n",  # no header
            "regulator\ttarget\nS1\ta\nS1\tb\nS2\tc\n",
            "TF;target\nS1;a\nS1;b\nS2;c\n",
            # TRRUST: TF, target, mode, PubMed ids (four fields on every line)
            "S1\ta\tActivation\t123\nS1\tb\tRepression\t456\nS2\tc\tUnknown\t789\n",
        ],
    )
    def test_two_column_forms(self, text):
        gs = parse_gene_sets(text, source="t")
        assert gs.format == "two-column table"
        assert gs.names == ["S1", "S2"] and gs.genes == [("a", "b"), ("c",)]

    @pytest.mark.parametrize(
        "text",
        ["regulator,target,pmid\nTF1,G1,12345\nTF1,G2\nTF2,G3,999\n", "TF1,G1,12345\nTF1,G2\nTF2,G3,999\n"],
    )
    def test_ragged_annotation_column_is_still_a_table(self, text):
        """A regulator,target table whose annotation column (a PubMed id) is empty on some rows: its
        header or its repeated first column says it is a table of pairs, not a set per line."""
        gs = parse_gene_sets(text, name="x.csv")
        assert gs.format == "two-column table"
        assert gs.names == ["TF1", "TF2"] and gs.genes == [("G1", "G2"), ("G3",)]

    def test_repeated_pairs_are_a_note(self):
        gs = parse_gene_sets("S1,a\nS1,a\nS1,b\n", source="t")
        assert gs.genes == [("a", "b")]
        assert any("1 repeated (set, gene) row(s)" in n for n in gs.notes)


class TestNotAGeneSetFile:
    @pytest.mark.parametrize(
        "text, match",
        [
            ("", "empty"),
            ("\n\n# only comments\n", "empty"),
            ("a\nb\nc\n", "single column"),
            ("gene,s1,s2\nG1,1.5,2.5\nG2,0.3,4.1\n", "numbers"),
            ("S1\tna\nS2\tna\n", "no gene sets with genes"),
        ],
    )
    def test_clear_error(self, text, match):
        with pytest.raises(DataValidationError, match=match):
            parse_gene_sets(text, source="upload.txt", name="upload.gmt" if "na" in text else "upload.txt")

    def test_binary_file(self):
        with pytest.raises(DataValidationError, match="not a gene-set file"):
            gene_sets_from_bytes(b"PK\x03\x04\x00\x00binary", "book.xlsx")

    def test_missing_file(self, tmp_path):
        with pytest.raises(DataValidationError, match="no such file"):
            read_gene_sets(tmp_path / "nope.gmt")

    def test_no_gene_in_the_data(self):
        gs = parse_gene_sets("S1,a\nS2,b\n", source="t")
        with pytest.raises(DataValidationError, match="none of its 2 genes"):
            match_gene_sets(gs, ["X", "Y"])


class TestMatching:
    def test_exact_match_wins_over_case(self):
        gs = parse_gene_sets("S1,GATA1\nS1,TAL1\n", source="t")
        m = match_gene_sets(gs, ["Gata1", "GATA1", "TAL1"])
        assert m.set_genes(0) == ["GATA1", "TAL1"]  # exact matches: 'Gata1' is not also counted
        assert not any("ignoring case" in n for n in m.notes)

    def test_genes_without_an_exact_match_fall_back_to_case(self):
        # a hand-made lower-case set beside an exact one: its genes are found, and the note says so
        gs = parse_gene_sets("S1,GATA1\nS2,tal1\nS2,klf1\n", source="t")
        m = match_gene_sets(gs, ["GATA1", "TAL1", "Actb"])
        assert m.set_genes(0) == ["GATA1"] and m.set_genes(1) == ["TAL1"]
        assert any(n.startswith("1 set gene(s) match no variable name exactly; they were matched") for n in m.notes)
        assert any(n.startswith("1 of the 3 genes") for n in m.notes)  # klf1

    def test_case_insensitive_fallback_is_noted(self):
        # a human-symbol set on mouse data
        gs = parse_gene_sets("S1\tna\tGATA1\tTAL1\tKLF1\n", source="t.gmt", name="t.gmt")
        m = match_gene_sets(gs, ["Gata1", "Tal1", "Actb"])
        assert m.set_genes(0) == ["Gata1", "Tal1"]
        assert any("ignoring case" in n for n in m.notes)
        assert any(n.startswith("1 of the 3 genes") for n in m.notes)

    def test_ensembl_versions_in_the_fallback(self):
        gs = parse_gene_sets("S1,ENSG00000141510\nS1,ENSG00000012048\n", source="t")
        m = match_gene_sets(gs, ["ENSG00000141510.16", "ENSG00000012048.23", "ENSG00000000003.15"])
        assert m.set_genes(0) == ["ENSG00000141510.16", "ENSG00000012048.23"]
        assert any("Ensembl version" in n for n in m.notes)

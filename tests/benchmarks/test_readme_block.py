"""The README's generated block is replaced in place, and nothing else is touched."""

from __future__ import annotations

from benchmarks.markdown import END, START, update_readme


def test_block_goes_before_where_it_stands_then_is_replaced_in_place(tmp_path) -> None:
    readme = tmp_path / "README.md"
    readme.write_text("# T\n\n## Figures\n\n| a |\n\n## Where it stands\n\n- x\n")
    assert update_readme(readme, f"{START}\none\n{END}")
    first = readme.read_text()
    assert first.index("| a |") < first.index("one") < first.index("## Where it stands")
    assert update_readme(readme, f"{START}\ntwo\n{END}")
    second = readme.read_text()
    assert "one" not in second and second == first.replace("one", "two")

from datasched.cli import main


def test_generate_from_options(tmp_path, capsys):
    out = tmp_path / "p.xml"
    code = main(
        [
            "platform",
            "generate",
            "--topology",
            "fat_tree",
            "--k",
            "2",
            "--levels",
            "2",
            "--mode",
            "san",
            "--io-servers",
            "3",
            "--out",
            str(out),
        ]
    )
    assert code == 0
    text = out.read_text()
    assert 'topology="FAT_TREE"' in text and text.count('"io_server"') == 3


def test_generate_from_yaml(tmp_path):
    params = tmp_path / "p.yaml"
    params.write_text("kind: forwarding\nclients: 8\nforwarders: 2\nservers: 2\n")
    out = tmp_path / "p.xml"
    assert main(["platform", "generate", "--params", str(params), "--out", str(out)]) == 0
    assert out.read_text().count('"forwarder"') == 2


def test_bad_parameter_exits_2_naming_it(tmp_path, capsys):
    params = tmp_path / "bad.yaml"
    params.write_text("interconnect:\n  link_bw: -3\n")
    code = main(["platform", "generate", "--params", str(params), "--out", str(tmp_path / "x.xml")])
    assert code == 2
    err = capsys.readouterr().err
    assert "bad.yaml" in err and "interconnect.link_bw" in err
    assert not (tmp_path / "x.xml").exists()


def test_generate_a_valiant_dragonfly(tmp_path):
    """(1,2,1): 3 groups of 2 routers, C(6,2) = 15 router-pair routes in zone ic."""
    out = tmp_path / "df.xml"
    args = ["platform", "generate", "--topology", "dragonfly", "--pah", "1,2,1", "--routing", "valiant"]
    assert main([*args, "--routing-seed", "4", "--out", str(out)]) == 0
    text = out.read_text()
    assert '<prop id="routing" value="valiant" />' in text and '<prop id="routing_seed" value="4" />' in text
    assert text.count('<zoneRoute src="ic-g') == 15


def test_routing_without_a_dragonfly_exits_2(tmp_path, capsys):
    assert main(["platform", "generate", "--routing", "valiant", "--out", str(tmp_path / "x.xml")]) == 2
    assert "--routing: give --topology too" in capsys.readouterr().err
    code = main(
        ["platform", "generate", "--topology", "torus", "--routing", "valiant", "--out", str(tmp_path / "x.xml")]
    )
    assert code == 2 and "interconnect.topology.routing" in capsys.readouterr().err

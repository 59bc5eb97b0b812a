"""Every check in rules/checks.yaml fires on a sheet that has the problem and stays quiet on one that has not."""
import pytest

from sheetaudit.rules import load_rules

SERVER = "# Helix G8 GPU server\n\n"
CASES = {
    # code: (sheet that must raise it, sheet that must not)
    "tier.unclassified": (SERVER + "Bandwidth: 800 Gb/s\n",
                          SERVER + "Cluster networking: 8x 400 Gb/s per port\n"),
    "tier.domain-size-missing": (SERVER + "NVLink: 900 GB/s per GPU\n",
                                 SERVER + "The eight GPUs are fully connected through NVSwitch.\n\nNVLink: 900 GB/s per GPU\n"),
    "tier.aggregate-figure": (SERVER + "accelerators_per_node: 8\n\naccelerator_interconnect: 18x 5th Gen NVLink, 14.4 TB/s aggregated bandwidth\n",
                              SERVER + "NVLink: 900 GB/s per GPU\n"),
    "tier.mixed-sum": (SERVER + "NVLink: 7.2 TB/s per node\n\nNetworking: 3.2 Tbps per node\n\nTotal I/O bandwidth: 10.4 TB/s\n",
                       SERVER + "NVLink: 900 GB/s per GPU\n\nNetworking: 8x 400 Gb/s\n"),
    "bandwidth.direction-unspecified": (SERVER + "NVLink: 900 GB/s per GPU\n",
                                        SERVER + "Host bandwidth: 64 GB/s per direction\n"),
    "bandwidth.bidirectional": (SERVER + "GPU-to-GPU: 1.8 TB/s per GPU, bidirectional\n",
                                SERVER + "Cluster networking: 8x 800 Gb/s per port\n"),
    "bandwidth.unit-ambiguous": (SERVER + "Cluster networking: a rail-optimized 400G fabric\n",
                                 SERVER + "Cluster networking: 400 Gb/s per port\n"),
    "bandwidth.aggregate-mismatch": ("# Meridian switch\n\nPorts: 64x 800GbE\n\nSwitching capacity: 80 Tb/s\n",
                                     "# Meridian switch\n\nPorts: 64x 800GbE\n\nSwitching capacity: 51.2 Tb/s\n"),
    "bandwidth.signaling-rate": (SERVER + "Host interface: PCIe Gen5 x16, 32 GT/s per lane\n",
                                 SERVER + "Host bandwidth: 64 GB/s per direction\n"),
    "bandwidth.scale-ratio": (SERVER + "accelerators_per_node: 8\n\nNVLink: 900 GB/s per GPU\n\nCluster networking: 8x 400 Gb/s ConnectX-7\n",
                              "# Corvid NIC adapter\n\nInfiniBand: NDR 400 Gb/s\n"),
    "latency.basis-unspecified": (SERVER + "Network latency: as low as 1 µs\n",
                                  "# Switch\n\nCut-through latency: < 700 ns\n"),
    "latency.hardware-only": ("# Switch\n\nPort-to-port latency: 130 ns\n",
                              "# Switch\n\nPort-to-port latency: 130 ns\n\nRDMA latency: 1.9 µs host to host (ib_write_lat, 8-byte messages)\n"),
    "latency.conditions-missing": ("# NIC adapter\n\nEnd-to-end latency: 2 µs\n",
                                   "# NIC adapter\n\nRDMA latency: 0.6 µs end-to-end, 2-byte messages (ib_write_lat)\n"),
    "latency.mixed-basis": ("# Switch\n\nOur 130 ns port-to-port latency is lower than rival X's 2 µs end-to-end latency.\n",
                            "# Switch\n\nCut-through latency: < 700 ns\n\nRDMA latency: 2.1 µs host to host (64-byte messages)\n"),
    "power.rack-density": ("# Orion rack-scale system\n\nRack power: ~132 kW maximum\n",
                           "# Orion rack-scale system\n\nRack power: 36 kW\n"),
    "power.liquid-cooling-required": (SERVER + "System power: 10.2 kW\n\nCooling: Direct liquid cooling\n",
                                      SERVER + "System power: 10.2 kW\n\nCooling: Air-cooled\n"),
    "power.per-node-only": (SERVER + "System power: 10.2 kW max\n",
                            SERVER + "System power: 10.2 kW max\n\nRack power: 40.8 kW (4 nodes)\n"),
    "power.missing": (SERVER + "NVLink: 900 GB/s per GPU\n",
                      SERVER + "System power: 10.2 kW\n"),
    "tier.domain-exceeds-technology": (SERVER + "Scale-up: NVLink 3 through NVSwitch, 600 GB/s per GPU; 64 GPUs per NVLink domain\n",
                                       SERVER + "Scale-up: NVLink 3 through NVSwitch, 600 GB/s per GPU; 16 GPUs per NVLink domain\n"),
    "bandwidth.exceeds-technology": (SERVER + "GPU interconnect: NVLink 3, 600 GB/s per direction per GPU\n",
                                     SERVER + "GPU interconnect: NVLink 3, 300 GB/s per direction per GPU\n"),
    "bandwidth.host-bottleneck": ("# Corvid NIC adapter\n\nNetwork adapter: one 400 Gb/s port; host interface PCIe Gen4 x16\n",
                                  "# Corvid NIC adapter\n\nNetwork adapter: one 400 Gb/s port; host interface PCIe Gen5 x16\n"),
    "latency.no-rdma": (SERVER + "Cluster networking: 8x 400GbE ports\n",
                        SERVER + "Cluster networking: 8x 400GbE ports, RoCE v2\n"),
    "sheet.no-figures": ("# Cover letter\n\nPlease find our quotation attached.\n",
                         SERVER + "System power: 10.2 kW\n"),
}


@pytest.mark.parametrize("code", sorted(CASES))
def test_check_fires_on_the_problem_and_not_without_it(sheet, code):
    bad, good = CASES[code]
    raised = {f.check for f in sheet(bad, name="bad.md").findings}
    assert code in raised, raised
    assert code not in {f.check for f in sheet(good, name="good.md").findings}


def test_facility_profile(sheet):
    text = "# Orion rack-scale system\n\nRack power: ~132 kW maximum\n\nCooling: Direct liquid cooling\n"
    over = sheet(text, facility={"rack_power_kw": 40, "cooling": ["air"]})
    assert "power.facility-exceeded" in {f.check for f in over.findings}
    fits = sheet(text, name="b.md", facility={"rack_power_kw": 150, "cooling": ["air", "liquid"]})
    assert "power.facility-exceeded" not in {f.check for f in fits.findings}


def test_no_text_page_is_reported_and_nothing_is_guessed():
    import sheetaudit
    from pathlib import Path
    scanned = Path(__file__).parent / "hostile" / "files" / "mixed-scanned.pdf"
    a = sheetaudit.audit(scanned)
    (f,) = [f for f in a.findings if f.check == "sheet.no-text"]
    assert f.pages == [2]
    clean = sheetaudit.audit(Path(__file__).parents[1] / "samples" / "kestrel-k8x-gpu-server.pdf")
    assert "sheet.no-text" not in {f.check for f in clean.findings}


def test_every_declared_check_has_a_case_here_or_its_own_test():
    own_tests = {"power.facility-exceeded", "sheet.no-text"}
    assert set(load_rules().checks) == set(CASES) | own_tests


def test_each_check_declares_why_and_fix():
    for code, c in load_rules().checks.items():
        assert c["why"] and c["fix"] and c["step"] in (0, 1, 2, 3, 4), code


def test_derived_figures_show_their_arithmetic(sheet):
    a = sheet(SERVER + "System power: 10.2 kW max\n")
    (f,) = [f for f in a.findings if f.check == "power.per-node-only"]
    (d,) = f.derived
    assert d.value == pytest.approx(40.8) and "x 4 nodes per rack" in d.arithmetic


def test_floor_load_against_the_facility(sheet):
    text = "# Orion rack-scale system\n\nRack power: 36 kW\n\nWeight: 1,360 kg\n\nDimensions: 600 mm W x 1,068 mm D x 2,236 mm H\n"
    heavy = sheet(text, facility={"floor_load_kg_m2": 1500})
    (f,) = [f for f in heavy.findings if f.check == "power.facility-exceeded"]
    assert "2,122 kg/m²" in f.message    # 1,360 kg / (0.6 m x 1.068 m)
    light = sheet(text, name="b.md", facility={"floor_load_kg_m2": 2500})
    assert "power.facility-exceeded" not in {f.check for f in light.findings}

#!/usr/bin/env python3
"""The many-machine recipe of docs/export.md, run on a local dask cluster.

Each "node" exports its own slogs with slogulate (here: two nodes made of
the repository's sample slogs, or the export folders you name); the export
folders are merged by copying them into one folder (as rsync would bring
them from the nodes); dask reads the merged folder as one partitioned
Parquet dataset and computes, in parallel, what `slogulate query` computes
with DuckDB. The script checks that both agree and exits 1 if they do not.

    python3 scripts/dask-recipe.py                  # the sample slogs, two nodes
    python3 scripts/dask-recipe.py node1-tables node2-tables ...

Needs Python 3, dask[dataframe] and pyarrow (`pip install "dask[dataframe]"
pyarrow`); with dask.distributed installed it starts a LocalCluster,
otherwise it uses dask's local process pool. Not part of `npm test`.
"""

import json
import os
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SLOGULATE = [os.environ.get("NODE", "node"), os.path.join(ROOT, "bin", "slogulate")]


def slogulate(*args):
    return subprocess.run([*SLOGULATE, *args], check=True, capture_output=True, text=True).stdout


def export_nodes(work):
    """Two nodes, each exporting its slogs where they are (here: one folder each)."""
    slogs = os.path.join(ROOT, "fixtures", "slogs")
    nodes = {"node1": ["a-local-3.slog", "a-xs-3.slog"], "node2": ["b-local-5.slog"]}
    folders = []
    for node, files in nodes.items():
        out = os.path.join(work, f"{node}-tables")
        slogulate("export", *[os.path.join(slogs, f) for f in files], "--to", out, "--source-prefix", f"{node}-", "--quiet")
        folders.append(out)
    return folders


def merge(folders, fleet):
    """Copy every export into one folder: table folders merge, one source= folder per slog."""
    for folder in folders:
        shutil.copytree(folder, fleet, dirs_exist_ok=True)


def start_cluster():
    try:
        from dask.distributed import Client, LocalCluster
    except ImportError:
        import dask

        dask.config.set(scheduler="processes")
        print("dask.distributed is not installed: using dask's local process pool")
        return None
    cluster = LocalCluster(n_workers=2, threads_per_worker=1)
    print(f"dask LocalCluster: {cluster.dashboard_link}")
    return Client(cluster)


def main():
    import dask.dataframe as dd

    work = tempfile.mkdtemp(prefix="slogulate-dask-")
    try:
        folders = sys.argv[1:] or export_nodes(work)
        fleet = os.path.join(work, "fleet")
        merge(folders, fleet)
        client = start_cluster()

        deliveries = dd.read_parquet(os.path.join(fleet, "deliveries"))
        syscalls = dd.read_parquet(os.path.join(fleet, "syscalls"))

        # Computrons and deliveries by source and vat.
        by_vat = (
            deliveries.groupby(["source", "vatID"], observed=True)
            .agg({"deliveryId": "count", "computrons": "sum"})
            .rename(columns={"deliveryId": "deliveries"})
            .compute()
            .reset_index()
            .sort_values(["source", "vatID"])
        )
        print("\nDeliveries and computrons by source and vat:")
        print(by_vat.to_string(index=False))

        # Syscalls by type.
        by_type = syscalls.groupby("type").agg({"micros": ["count", "sum"]}).compute()
        by_type.columns = ["n", "us"]
        by_type = by_type.sort_values("us", ascending=False)
        print("\nSyscalls by type:")
        print(by_type.to_string())

        # The join: time in syscalls per crank, the top 5.
        joined = deliveries[["source", "deliveryId", "crankNum", "vatName", "method"]].merge(
            syscalls[["source", "deliveryId", "micros"]], on=["source", "deliveryId"]
        )
        per_crank = (
            joined.groupby(["source", "crankNum"], observed=True)
            .agg({"micros": ["count", "sum"]})
            .compute()
        )
        per_crank.columns = ["syscalls", "syscall_us"]
        top = per_crank.sort_values(["syscall_us", "syscalls"], ascending=False).head(5)
        print("\nCranks with the most time in syscalls:")
        print(top.to_string())

        # The same figures from slogulate query (DuckDB), over the same folders.
        sql = (
            "SELECT type, count(micros) AS n, sum(micros) AS us FROM syscalls GROUP BY type ORDER BY type"
        )
        duck = {r["type"]: (r["n"], r["us"]) for r in json.loads(slogulate("query", sql, *folders, "--format", "json"))}
        mine = {t: (int(r.n), int(r.us)) for t, r in by_type.iterrows()}
        sql = "SELECT count(*) AS n, sum(computrons) AS c FROM deliveries"
        total = json.loads(slogulate("query", sql, *folders, "--format", "json"))[0]
        agree = duck == mine and total["n"] == int(by_vat.deliveries.sum()) and (total["c"] or 0) == int(by_vat.computrons.sum())
        print(f"\ndask and slogulate query agree: {'yes' if agree else 'NO'}")
        if client is not None:
            client.close()
        return 0 if agree else 1
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())

"""Reads seed folders with cloud-init's own NoCloud datasource, as a booting guest does.

stdin: a JSON list of folders, each holding a seed ISO's files (user-data, meta-data,
vendor-data). stdout: one JSON object per folder, in order: what cloud-init made of it,
or the exception it raised. Run by Debian's python3, the one its cloud-init package uses.
"""
import base64
import json
import os
import shutil
import sys
import tempfile

from cloudinit import distros, helpers, version
from cloudinit.sources import DataSourceNoCloud


def read(folder):
    scratch = tempfile.mkdtemp(prefix="egress-cloud-init-")
    try:
        paths = helpers.Paths({"cloud_dir": os.path.join(scratch, "cloud"), "run_dir": os.path.join(scratch, "run")})
        # The seed folder cloud-init reads first (DataSourceNoCloud.seed_dirs); no label probe of this machine's disks.
        seed = os.path.join(paths.seed_dir, "nocloud")
        os.makedirs(seed)
        # Contents only: the extracted files keep the ISO's read-only modes, which would outlive the clean-up.
        for name in os.listdir(folder):
            shutil.copyfile(os.path.join(folder, name), os.path.join(seed, name))
        sys_cfg = {"datasource": {"NoCloud": {"fs_label": None}}}
        distro = distros.fetch("debian")("debian", {}, paths)
        source = DataSourceNoCloud.DataSourceNoCloud(sys_cfg, distro, paths)
        try:
            # get_data also writes instance-data.json, where a boolean local-hostname raised in 22.4.
            found = source.get_data()
        except Exception as e:  # what the guest's log would show; the guest then has no datasource
            return {"error": "%s: %s" % (type(e).__name__, e)}
        vendor = source.get_vendordata()
        return {
            "found": found,
            # JSON keeps the type: a string stays a string, yes becomes true, null null.
            "metadata": {k: source.metadata.get(k) for k in ("instance-id", "local-hostname")},
            "instanceId": source.get_instance_id(),
            "hostname": source.get_hostname().hostname,
            # NoCloud's network-config as cloud-init parsed it (None without the file), issue 24.
            "networkConfig": source.network_config,
            "userData": base64.b64encode(source.get_userdata_raw()).decode("ascii"),
            # The parts cloud-init's handlers get (user_data.UserDataProcessor), with the type it settled on.
            "vendorParts": [
                {"type": part.get_content_type(), "body": part.get_payload(decode=True).decode("utf-8")}
                for part in (vendor.walk() if vendor is not None else [])
                if not part.is_multipart()
            ],
        }
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


print(json.dumps({"version": version.version_string(), "seeds": [read(f) for f in json.load(sys.stdin)]}))

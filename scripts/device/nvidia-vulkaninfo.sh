#!/bin/bash
# How tests/fixtures/captured/nvidia-h100/ was made: on the lent GPU machine, with .gl/ (Debian loader debs)
# and .devcarry/ (xz-compressed node, out/ and the runtime node_modules) carried along. Not run in CI.
set -u
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig
mkdir -p /tmp/h; export HOME=/tmp/h XDG_RUNTIME_DIR=/tmp/h
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
export LD_LIBRARY_PATH=$PWD/.devcarry/libs
.devcarry/libs/vulkaninfo --summary > $OUT/vulkaninfo-summary.txt 2>&1; echo "summary rc=$?"
(cd /tmp/h && $OLDPWD/.devcarry/libs/vulkaninfo --json > /dev/null 2>&1; echo "json rc=$?"; ls /tmp/h; cp /tmp/h/*.json $OUT/vulkaninfo.json 2>/dev/null)
cd /tmp/h && OLDPWD= ; head -80 $OUT/vulkaninfo-summary.txt

#!/bin/bash
# How tests/fixtures/captured/nvidia-h100/ was made: on the lent GPU machine, with .gl/ (Debian loader debs)
# and .devcarry/ (xz-compressed node, out/ and the runtime node_modules) carried along. Not run in CI.
# Runs on the GPU machine: unpack the loader debs, node, then Strata's CLI against the real NVIDIA driver.
set -u
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig
xz -dc .devcarry/node.xz > /tmp/node && chmod +x /tmp/node
export PATH=/tmp:$PATH
cd .devcarry/app
mkdir -p /tmp/h/.config /tmp/h/.local/share; export HOME=/tmp/h XDG_CONFIG_HOME=/tmp/h/.config XDG_DATA_HOME=/tmp/h/.local/share XDG_RUNTIME_DIR=/tmp/h
echo "== node $(/tmp/node --version)"; nvidia-smi --query-gpu=name,driver_version --format=csv
ls /usr/local/nvidia/share/vulkan/icd.d/ /usr/share/vulkan/icd.d/ /etc/vulkan/icd.d/ 2>&1
ICD=$(ls /usr/share/vulkan/icd.d/nvidia_icd.json /etc/vulkan/icd.d/nvidia_icd.json /usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json 2>/dev/null | head -1)
echo "== ICD manifest: $ICD"; cat "$ICD"
export VK_DRIVER_FILES=$ICD
/tmp/node bin/strata info --json > $OUT/info.json 2>$OUT/info.err; echo "info rc=$?"
/tmp/node bin/strata loader show --json > $OUT/loader.json 2>$OUT/loader.err; echo "loader rc=$?"
/tmp/node bin/strata device list --json > $OUT/devices.json 2>$OUT/devices.err; echo "devices rc=$?"
/tmp/node bin/strata device list 2>&1 | head -40
/tmp/node bin/strata driver negotiate --json "$ICD" > $OUT/negotiate.json 2>$OUT/negotiate.err; echo "negotiate rc=$?"
/tmp/node bin/strata driver negotiate "$ICD" 2>&1 | head -20
(vulkaninfo --summary > $OUT/vulkaninfo-summary.txt 2>&1; echo "vulkaninfo rc=$?") 
head -60 $OUT/vulkaninfo-summary.txt
cat $OUT/*.err | head -20

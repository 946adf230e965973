set +e
nvidia-smi -L; python3 --version
python3 -c "import numpy; print('numpy', numpy.__version__)"
python3 -c "import torch; print('torch', torch.__version__, torch.cuda.is_available())"
python3 -c "import cupy; print('cupy', cupy.__version__)"
python3 -c "import ml_dtypes; print('ml_dtypes', ml_dtypes.__version__)"
python3 -c "import pytest; print('pytest', pytest.__version__)"
grep -m1 "model name" /proc/cpuinfo; grep -m1 -o "avx512f" /proc/cpuinfo
export PYTHONPATH=$PWD/python PTENSOR_CACHE_DIR=$PWD/build/gpu-cache PTENSOR_BUILD_DIR=$PWD/build PTENSOR_COMPILE=/nonexistent
python3 -c "import ptensor as pt; print('cuda_available', pt.cuda_available(), pt._runtime.last_error())"
python3 -X faulthandler -m pytest -q -p no:cacheprovider python/tests/test_gpu.py -k "not out_cases" 2>&1 | tail -40
echo ==== OUT
python3 -X faulthandler -m pytest -q -p no:cacheprovider python/tests/test_gpu.py -k "out_cases" 2>&1 | tail -30
echo ==== CPU
python3 -X faulthandler -m pytest -q -p no:cacheprovider python/tests -k "not gpu" 2>&1 | tail -25

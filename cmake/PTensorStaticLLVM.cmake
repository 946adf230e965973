# ptensor_static_llvm: LLVM/MLIR's static component libraries (Debian's
# llvm-22-dev / libmlir-22-dev ship libLLVM*.a and libMLIR*.a) instead of
# libMLIR.so / libLLVM.so: for every tool with PTENSOR_STATIC_TOOLS, so that
# ptensor-runner runs on a machine without LLVM/MLIR, and for
# ptensor._compile and ptensor-compile with PTENSOR_STATIC_COMPILERS
# (CMakeLists.txt). The
# exported MLIR targets link the LLVM dylib, so they are not used: every
# archive goes into one link group and the linker takes the members that are
# referenced. Combine with --gc-sections
# (the archives are built with -ffunction-sections -fdata-sections).
file(GLOB _ptensor_mlir_archives "${LLVM_LIBRARY_DIR}/libMLIR*.a")
# Test dialects/passes are never needed.
list(FILTER _ptensor_mlir_archives EXCLUDE REGEX "/libMLIR[A-Za-z0-9]*Test[A-Za-z0-9]*\\.a$")
file(GLOB _ptensor_llvm_archives "${LLVM_LIBRARY_DIR}/libLLVM*.a")
# LLD's ELF driver (PTensorCompiler links shared libraries with it) calls
# into LLVM's archives, so it joins their group.
foreach(_lld lldELF lldCommon)
  if(EXISTS "${LLVM_LIBRARY_DIR}/lib${_lld}.a")
    list(APPEND _ptensor_llvm_archives "${LLVM_LIBRARY_DIR}/lib${_lld}.a")
  endif()
endforeach()
list(LENGTH _ptensor_mlir_archives _n_mlir)
list(LENGTH _ptensor_llvm_archives _n_llvm)
if(_n_mlir EQUAL 0 OR _n_llvm EQUAL 0)
  message(FATAL_ERROR "static LLVM/MLIR: no libMLIR*.a / libLLVM*.a in "
    "${LLVM_LIBRARY_DIR} (install libmlir-22-dev and llvm-22-dev)")
endif()
message(STATUS "static LLVM/MLIR: ${_n_mlir} MLIR and ${_n_llvm} LLVM static libraries")

find_package(Threads REQUIRED)
# zlib (LLVM's compression support) static when there is a libz.a.
find_library(PTENSOR_ZLIB_LIBRARY NAMES libz.a z)
# zstd likewise; Debian has no libzstd.a, so the shared one, only recorded as
# needed if something that stays after --gc-sections uses it (--as-needed;
# lld decides after garbage collection).
find_library(PTENSOR_ZSTD_LIBRARY NAMES libzstd.a zstd libzstd.so.1)

add_library(ptensor_static_llvm INTERFACE)
target_link_libraries(ptensor_static_llvm INTERFACE
  "-Wl,--start-group" ${_ptensor_mlir_archives} ${_ptensor_llvm_archives}
  "-Wl,--end-group")
if(PTENSOR_ZLIB_LIBRARY)
  # Debian's libz.a is not position-independent: a shared object
  # (ptensor._compile) takes the shared zlib.
  target_link_libraries(ptensor_static_llvm INTERFACE
    "$<IF:$<STREQUAL:$<TARGET_PROPERTY:TYPE>,EXECUTABLE>,${PTENSOR_ZLIB_LIBRARY},z>")
endif()
if(PTENSOR_ZSTD_LIBRARY)
  target_link_libraries(ptensor_static_llvm INTERFACE
    "-Wl,--push-state,--as-needed" ${PTENSOR_ZSTD_LIBRARY} "-Wl,--pop-state")
endif()
target_link_libraries(ptensor_static_llvm INTERFACE Threads::Threads
  ${CMAKE_DL_LIBS} m)
# Polly's entry point, which LLVM's static extensions call and Debian has
# no archive of (lib/StaticLLVM/PollyPluginStub.cpp says why).
if(NOT EXISTS "${LLVM_LIBRARY_DIR}/libPolly.a")
  target_sources(ptensor_static_llvm INTERFACE
    "${PROJECT_SOURCE_DIR}/lib/StaticLLVM/PollyPluginStub.cpp")
endif()
# Drop the unreferenced functions and data of the archives.
target_compile_options(ptensor_static_llvm INTERFACE -ffunction-sections -fdata-sections)
target_link_options(ptensor_static_llvm INTERFACE
  $<$<STREQUAL:$<TARGET_PROPERTY:TYPE>,EXECUTABLE>:LINKER:--gc-sections>)
# An executable that carries the archives is linked at a fixed address: as
# a position-independent executable the loader applied its 264,000
# relative relocations (and copied the pages they touch) at every start,
# 1.5 of the 8 ms ptensor-compile --version took on the build machine.
target_link_options(ptensor_static_llvm INTERFACE
  $<$<STREQUAL:$<TARGET_PROPERTY:TYPE>,EXECUTABLE>:-no-pie>)

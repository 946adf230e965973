# Installation of ptensor as a CMake package.
#
#   cmake --install build --prefix P
#
# gives P/bin (ptensor-opt, ptensor-runner, ptensor-compile), P/include
# (ptensor/, ptensor-c/, the runtime header and the generated .inc files),
# P/lib (static ptensor libraries, libPTensorCAPI.so, libptensor_runtime.so)
# and P/lib/cmake/PTensor, so that a project does
#
#   find_package(PTensor CONFIG REQUIRED)   # -DPTensor_DIR=P/lib/cmake/PTensor
#   target_link_libraries(my-tool PRIVATE PTensor::InitAll)
#
# Included at the end of the top-level CMakeLists.txt, once every target
# exists.

include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

set(PTENSOR_PACKAGE_VERSION ${PROJECT_VERSION})
set(PTENSOR_INSTALL_CMAKEDIR ${CMAKE_INSTALL_LIBDIR}/cmake/PTensor)

# PTensor::Conversion: the conversion libraries.
add_library(PTensorConversion INTERFACE)
target_link_libraries(PTensorConversion INTERFACE PTensorToLinalg
  PTensorLinalgToGPU PTensorReductionsToLoops PTensorContractionsToLibrary
  PTensorSortToLibrary
  PTensorDeviceCopies
  PTensorGPUModules
  PTensorRunTimeChecks
  PTensorHostParallel
  PTensorHostLoops)

# In-tree name -> exported name (PTensor::<name>).
set(PTENSOR_EXPORTED_LIBRARIES
  PTensorSemantics=Semantics
  PTensorCache=Cache
  PTensorTeamHost=TeamHost
  PTensorDialect=Dialect
  PTensorUtils=Utils
  PTensorTransforms=Transforms
  PTensorToLinalg=ToLinalg
  PTensorLinalgToGPU=LinalgToGPU
  PTensorReductionsToLoops=ReductionsToLoops
  PTensorContractionsToLibrary=ContractionsToLibrary
  PTensorSortToLibrary=SortToLibrary
  PTensorDeviceCopies=DeviceCopies
  PTensorGPUModules=GPUModules
  PTensorRunTimeChecks=RunTimeChecks
  PTensorHostParallel=HostParallel
  PTensorHostLoops=HostLoops
  PTensorConversion=Conversion
  PTensorPipelines=Pipelines
  PTensorInitAll=InitAll
  PTensorParserHazards=ParserHazards
  PTensorCompiler=Compiler
  PTensorToolSupport=ToolSupport
  PTensorSupport=Support
  PTensorJIT=JIT
  PTensorCAPI=CAPI
  ptensor_runtime=Runtime
)
set(PTENSOR_INSTALL_LIBRARY_TARGETS)
set(PTENSOR_EXPORTED_NAMES)
foreach(entry ${PTENSOR_EXPORTED_LIBRARIES})
  string(REPLACE "=" ";" pair "${entry}")
  list(GET pair 0 target)
  list(GET pair 1 name)
  if(TARGET ${target})
    set_target_properties(${target} PROPERTIES EXPORT_NAME ${name})
    list(APPEND PTENSOR_INSTALL_LIBRARY_TARGETS ${target})
    list(APPEND PTENSOR_EXPORTED_NAMES ${name})
  endif()
endforeach()

# Installed binaries find libMLIR.so/libLLVM.so (not on the default search
# path on Debian) and the ptensor shared libraries next to them.
set(PTENSOR_INSTALL_RPATH "\$ORIGIN/../${CMAKE_INSTALL_LIBDIR}" "${LLVM_LIBRARY_DIR}")

set(PTENSOR_INSTALL_TOOLS)
foreach(tool ptensor-opt ptensor-runner ptensor-compile)
  if(TARGET ${tool})
    list(APPEND PTENSOR_INSTALL_TOOLS ${tool})
  endif()
endforeach()
set_target_properties(${PTENSOR_INSTALL_TOOLS} PTensorCAPI PROPERTIES
  INSTALL_RPATH "${PTENSOR_INSTALL_RPATH}")

install(TARGETS ${PTENSOR_INSTALL_LIBRARY_TARGETS}
  EXPORT PTensorTargets
  ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
  RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR}
  INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(TARGETS ${PTENSOR_INSTALL_TOOLS}
  RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})

# Headers: sources (the runtime installs its own; KernelPassOptions.inc is
# a source that Pipelines.h includes), then the generated .inc.
install(DIRECTORY ${PROJECT_SOURCE_DIR}/include/ptensor
                  ${PROJECT_SOURCE_DIR}/include/ptensor-c
  DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}
  FILES_MATCHING PATTERN "*.h" PATTERN "*.td" PATTERN "*.def"
                 PATTERN "*.inc")
install(DIRECTORY ${PROJECT_BINARY_DIR}/include/ptensor
  DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}
  FILES_MATCHING PATTERN "*.inc"
  PATTERN "CMakeFiles" EXCLUDE)

install(EXPORT PTensorTargets
  NAMESPACE PTensor::
  DESTINATION ${PTENSOR_INSTALL_CMAKEDIR})

set(PTENSOR_CONFIG_MLIR_DIR "${MLIR_DIR}")
set(PTENSOR_CONFIG_LLVM_VERSION_MAJOR "${LLVM_VERSION_MAJOR}")
configure_package_config_file(
  ${CMAKE_CURRENT_LIST_DIR}/PTensorConfig.cmake.in
  ${PROJECT_BINARY_DIR}/cmake/PTensorConfig.cmake
  INSTALL_DESTINATION ${PTENSOR_INSTALL_CMAKEDIR}
  PATH_VARS CMAKE_INSTALL_INCLUDEDIR CMAKE_INSTALL_BINDIR CMAKE_INSTALL_LIBDIR)
write_basic_package_version_file(
  ${PROJECT_BINARY_DIR}/cmake/PTensorConfigVersion.cmake
  VERSION ${PTENSOR_PACKAGE_VERSION}
  COMPATIBILITY SameMinorVersion)
install(FILES
  ${PROJECT_BINARY_DIR}/cmake/PTensorConfig.cmake
  ${PROJECT_BINARY_DIR}/cmake/PTensorConfigVersion.cmake
  DESTINATION ${PTENSOR_INSTALL_CMAKEDIR})

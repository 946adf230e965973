//===- PatternsInternal.h - pattern groups of convert-ptensor-to-linalg ---===//

#ifndef PTENSOR_LIB_CONVERSION_PTENSORTOLINALG_PATTERNSINTERNAL_H
#define PTENSOR_LIB_CONVERSION_PTENSORTOLINALG_PATTERNSINTERNAL_H

#include "ptensor/Dialect/PTensor/IR/PTensor.h"

#include "mlir/Transforms/DialectConversion.h"

namespace mlir::ptensor {

/// Elementwise ops, cast and pointwise to linalg.generic.
void populateElementwiseToLinalgPatterns(const TypeConverter &converter,
                                         RewritePatternSet &patterns);

/// reduce, test and find_index to reduction generics.
void populateReductionsToLinalgPatterns(const TypeConverter &converter,
                                        RewritePatternSet &patterns);

/// matmul, vecdot, tensordot to contraction generics.
void populateContractionsToLinalgPatterns(const TypeConverter &converter,
                                          RewritePatternSet &patterns);

/// create, create_like, eye, arange, linspace, from_ranked, to_ranked,
/// copy, dim, shape, size, rank.
void populateCreationToLinalgPatterns(const TypeConverter &converter,
                                      RewritePatternSet &patterns);

/// combine (concat, stack), roll and extract_triangle to copy generics.
void populateManipulationToLinalgPatterns(const TypeConverter &converter,
                                          RewritePatternSet &patterns);

/// sort and argsort to a copy sorted in place (ptensor.sort_along).
void populateSortingToLinalgPatterns(const TypeConverter &converter,
                                     RewritePatternSet &patterns);
/// searchsorted: a parallel generic over the values, a binary search each.
void populateSearchingToLinalgPatterns(const TypeConverter &converter,
                                       RewritePatternSet &patterns);
/// take: a parallel generic over the result reading the source by
/// position, after a check of the indices.
void populateIndexingToLinalgPatterns(const TypeConverter &converter,
                                      RewritePatternSet &patterns);
/// extract_mask and nonzero: flags, count, select, gather (Compaction.h).
void populateCompactionToLinalgPatterns(const TypeConverter &converter,
                                        RewritePatternSet &patterns);
/// unique: a sort of the flattened input, then count → select.
void populateSetsToLinalgPatterns(const TypeConverter &converter,
                                  RewritePatternSet &patterns);
/// reshape to a view, or a row-major copy and a view (chosen at run time).
void populateReshapeToMemRefPatterns(const TypeConverter &converter,
                                     RewritePatternSet &patterns);

/// Marks the slice that is a process's team block.
inline constexpr llvm::StringLiteral kTeamBlockAttrName = "ptensor.team_block";

/// Computes only the block of a team tensor made by a linalg op used by
/// nothing else (creation ops, elementwise work on gathered operands): the
/// producer is tiled to the block's slice (upstream's
/// replaceExtractSliceWithTiledProducer), so each element is computed
/// exactly as for the whole tensor.
void computeTeamBlocksOnly(ModuleOp module);

/// Team communication steps (ptensor.team_*) to slices and libptensor_team
/// calls.
void populateTeamsToRuntimePatterns(const TypeConverter &converter,
                                    RewritePatternSet &patterns);

/// broadcast, meshgrid and the views, as indexing maps or strided memref
/// views.
void populateViewsToMemRefPatterns(const TypeConverter &converter,
                                   RewritePatternSet &patterns);

/// ptensor.write to ptensor.strided_write (see WriteToLinalg.cpp).
void populateWriteToLinalgPatterns(const TypeConverter &converter,
                                   RewritePatternSet &patterns);

/// ptensor.delete to ptensor.release_buffer (see DeleteToBuffer.cpp).
void populateDeleteToBufferPatterns(const TypeConverter &converter,
                                    RewritePatternSet &patterns);

/// Before conversion: checks that each write's tensor (its destination or
/// what the destination views) is defined in the write's block, and
/// rebuilds a view destination right before its write.
LogicalResult prepareWrites(Operation *root);

/// After conversion: the uses of each write's destination that come after
/// it use its result (`writes` in program order).
void orderReadsAfterWrites(ArrayRef<StridedWriteOp> writes);

/// Copies between the host and a GPU (or two GPUs) to a fresh buffer
/// filled by a marked gpu.memcpy (see DeviceCopies.h).
void populateDeviceCopyToMemcpyPatterns(const TypeConverter &converter,
                                        RewritePatternSet &patterns);

/// The kDeviceCopy* direction of `op`, or an empty string for a copy
/// between host tensors.
StringRef getDeviceCopyDirection(CopyOp op);

} // namespace mlir::ptensor

#endif // PTENSOR_LIB_CONVERSION_PTENSORTOLINALG_PATTERNSINTERNAL_H

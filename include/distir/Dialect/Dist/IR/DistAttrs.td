//===- DistAttrs.td - dist dialect attributes --------------*- tablegen -*-===//

#ifndef DISTIR_DIALECT_DIST_DISTATTRS_TD
#define DISTIR_DIALECT_DIST_DISTATTRS_TD

include "distir/Dialect/Dist/IR/DistDialect.td"
include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/EnumAttr.td"
include "mlir/IR/BuiltinAttributeInterfaces.td"

class Dist_Attr<string name, string attrMnemonic, list<Trait> traits = []>
    : AttrDef<Dist_Dialect, name, traits> {
  let mnemonic = attrMnemonic;
}

def Dist_DevicesAttr : Dist_Attr<"Devices", "devices"> {
  let summary = "A set of devices: the placement of a tensor";
  let description = [{
    The set of device ids that each hold a local copy (or shard) of a tensor,
    used as the encoding of a ranked tensor type:
    `tensor<8x1024xbf16, #dist.devices<[0:4]>>`. Ids are unique and printed
    in increasing order; runs print compactly as `start:end` (end excluded)
    or `start:end:step`, so `[0:8:2, 9]` is `{0, 2, 4, 6, 9}`. The set is
    stored and queried as such runs, never id by id: `[0:1048576]` is one
    run however it is used.
  }];
  let parameters = (ins ArrayRefParameter<"::mlir::dist::DeviceRun",
                                          "canonical runs of increasing ids">:$runs);
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
  let skipDefaultBuilders = 1;
  let builders = [
    // Sorted, unique ids.
    AttrBuilder<(ins "::llvm::ArrayRef<int64_t>":$ids), [{
      return $_get($_ctxt, ::mlir::dist::canonicalDeviceRuns(ids));
    }]>
  ];
  let extraClassDeclaration = [{
    /// The ids, in increasing order, as a lazy range over the runs.
    ::mlir::dist::DeviceIdRange getIds() const {
      return ::mlir::dist::DeviceIdRange(getRuns());
    }
    /// The number of devices: O(number of runs), as every query here.
    size_t size() const { return getIds().size(); }
    bool contains(int64_t id) const { return indexOf(id) >= 0; }
    /// Position of `id` in the set, or -1.
    int64_t indexOf(int64_t id) const;
    /// Builds the set from ids in any order (sorted and deduplicated here).
    static DevicesAttr getFromUnsorted(::mlir::MLIRContext *ctx,
                                       ::llvm::ArrayRef<int64_t> ids);
    /// Builds the set from runs of increasing ids (canonicalized here).
    static DevicesAttr getFromRuns(::mlir::MLIRContext *ctx,
                                   ::llvm::ArrayRef<::mlir::dist::DeviceRun> runs);
    static DevicesAttr getCheckedFromRuns(
        ::llvm::function_ref<::mlir::InFlightDiagnostic()> emitError,
        ::mlir::MLIRContext *ctx, ::llvm::ArrayRef<::mlir::dist::DeviceRun> runs);
  }];
}

def Dist_DeviceGroupsAttr : Dist_Attr<"DeviceGroups", "groups"> {
  let summary = "Equal-size groups of devices that a collective runs over";
  let description = [{
    `[[0, 1], [2, 3]]`: the collective runs independently inside every group,
    like StableHLO's replica groups. Groups are disjoint and of equal size;
    their union must be the device set the collective acts on. Inside a group
    the order is significant (the rank of a device in the group: all_gather
    concatenates in this order, `root` indexes it). Each group is stored as
    runs, like `#dist.devices`.
  }];
  let parameters = (ins
      ArrayRefParameter<"::mlir::dist::DeviceRun",
                        "canonical runs of each group, group after group">:$runs,
      ArrayRefParameter<"int64_t", "index of the first run of each group">:$groupStarts,
      "int64_t":$groupSize);
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
  let skipDefaultBuilders = 1;
  let builders = [
    AttrBuilder<(ins "::llvm::ArrayRef<::llvm::SmallVector<int64_t>>":$groups), [{
      ::llvm::SmallVector<::llvm::SmallVector<::mlir::dist::DeviceRun>> runs;
      for (const auto &group : groups)
        runs.push_back(::mlir::dist::canonicalDeviceRuns(group));
      return getFromRuns($_ctxt, runs);
    }]>
  ];
  let extraClassDeclaration = [{
    int64_t getNumGroups() const { return getGroupStarts().size(); }
    /// The ids of group `i`, in order, as a lazy range over its runs.
    ::mlir::dist::DeviceIdRange getGroup(int64_t i) const {
      ::llvm::ArrayRef<int64_t> starts = getGroupStarts();
      size_t end = i + 1 < (int64_t)starts.size() ? starts[i + 1] : getRuns().size();
      return ::mlir::dist::DeviceIdRange(
          getRuns().slice(starts[i], end - starts[i]));
    }
    /// The runs of each group.
    static DeviceGroupsAttr getFromRuns(
        ::mlir::MLIRContext *ctx,
        ::llvm::ArrayRef<::llvm::SmallVector<::mlir::dist::DeviceRun>> groups);
    static DeviceGroupsAttr getCheckedFromRuns(
        ::llvm::function_ref<::mlir::InFlightDiagnostic()> emitError,
        ::mlir::MLIRContext *ctx,
        ::llvm::ArrayRef<::llvm::SmallVector<::mlir::dist::DeviceRun>> groups);
    /// The sorted union of all groups.
    DevicesAttr getUnion() const;
    /// The device at position `rank` of every group (the roots), sorted.
    DevicesAttr getRoots(int64_t rank) const;
  }];
}

def Dist_AxisListAttr
    : ArrayOfAttr<Dist_Dialect, "AxisList", "axes", "::mlir::StringAttr"> {
  let summary = "Mesh axis names, major to minor";
  let description = [{
    `["dp", "tp"]` inside a `#dist.sharding`: the axes that split one tensor
    dimension, or the axes of pending partial sums; `[]` when there are none.
  }];
  let assemblyFormat = "`[` (`]`) : ($value^ `]`)?";
}

// The partial axes of a sharding: an empty list when the value is not a
// pending partial sum. The empty list is the parameter's default, so the
// format prints `partial = [...]` only when it is not empty and `partial = []`
// parses to the same attribute as no partial at all.
def Dist_PartialAxesParameter
    : AttrOrTypeParameter<"::mlir::dist::AxisListAttr",
                          "axes of pending partial sums"> {
  let defaultValue = "::mlir::dist::AxisListAttr::get($_ctxt, {})";
}

def Dist_ShardingAttr : Dist_Attr<"Sharding", "sharding"> {
  let summary = "How a global tensor is split over the axes of a mesh";
  let description = [{
    `#dist.sharding<@world, [["dp"], [], ["tp"]], partial = ["pp"]>`: for each
    tensor dimension, the mesh axes that split it (major to minor); the value
    is replicated over every mesh axis not named; `partial` lists the axes over
    which the local values are pending partial sums of the global value. The
    common language of data, tensor parallelism and ZeRO, and of layout maps.
  }];
  let parameters = (ins
      "::mlir::FlatSymbolRefAttr":$mesh,
      OptionalArrayRefParameter<"::mlir::dist::AxisListAttr",
                                "the axes of each dimension">:$dimAxes,
      Dist_PartialAxesParameter:$partialAxes);
  let assemblyFormat = [{
    `<` $mesh `,` `[` (`]`) : ($dimAxes^ `]`)?
      (`,` `partial` `=` $partialAxes^)? `>`
  }];
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    int64_t getRank() const { return getDimAxes().size(); }
    /// Axis names splitting dimension `dim`.
    ::llvm::SmallVector<::llvm::StringRef> getAxesOfDim(int64_t dim) const;
    ::llvm::SmallVector<::llvm::StringRef> getPartial() const;
    bool isReplicated() const;
    static ShardingAttr get(::mlir::MLIRContext *ctx, ::llvm::StringRef mesh,
                            ::llvm::ArrayRef<::llvm::SmallVector<::llvm::StringRef>> dims,
                            ::llvm::ArrayRef<::llvm::StringRef> partial = {});
  }];
}

def Dist_ReductionKind : I32EnumAttr<"ReductionKind", "reduction of a collective", [
    I32EnumAttrCase<"sum", 0>, I32EnumAttrCase<"prod", 1>,
    I32EnumAttrCase<"min", 2>, I32EnumAttrCase<"max", 3>,
    I32EnumAttrCase<"avg", 4>]> {
  let genSpecializedAttr = 0;
  let cppNamespace = "::mlir::dist";
}
def Dist_ReductionKindAttr : EnumAttr<Dist_Dialect, Dist_ReductionKind, "reduction"> {
  let assemblyFormat = "$value";
}

def Dist_LossReduction : I32EnumAttr<"LossReduction", "reduction of a loss", [
    I32EnumAttrCase<"mean", 0>, I32EnumAttrCase<"sum", 1>,
    I32EnumAttrCase<"none", 2>]> {
  let genSpecializedAttr = 0;
  let cppNamespace = "::mlir::dist";
}
def Dist_LossReductionAttr : EnumAttr<Dist_Dialect, Dist_LossReduction, "loss_reduction"> {
  let assemblyFormat = "$value";
}

def Dist_GeluApproximation : I32EnumAttr<"GeluApproximation", "GeLU formula", [
    I32EnumAttrCase<"none", 0>, I32EnumAttrCase<"tanh", 1>]> {
  let genSpecializedAttr = 0;
  let cppNamespace = "::mlir::dist";
}
def Dist_GeluApproximationAttr
    : EnumAttr<Dist_Dialect, Dist_GeluApproximation, "gelu_approximation"> {
  let assemblyFormat = "$value";
}

#endif // DISTIR_DIALECT_DIST_DISTATTRS_TD

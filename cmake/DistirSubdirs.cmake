# Adds every immediate subdirectory of the current source directory that has a
# CMakeLists.txt, in sorted order. Components live in their own folders, so
# adding one never means editing a shared list (several people add components
# at once). CONFIGURE_DEPENDS re-runs CMake when a folder appears.
function(distir_add_all_subdirectories)
  file(GLOB children CONFIGURE_DEPENDS RELATIVE ${CMAKE_CURRENT_SOURCE_DIR}
       ${CMAKE_CURRENT_SOURCE_DIR}/*/CMakeLists.txt)
  list(SORT children)
  foreach(child ${children})
    get_filename_component(dir ${child} DIRECTORY)
    add_subdirectory(${dir})
  endforeach()
endfunction()

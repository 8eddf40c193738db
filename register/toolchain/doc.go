// Package toolchain reproduces what the OGC building-block tool chain does
// to a register's JSON-LD: each block's schema is annotated from its
// context (Annotate), and each block's context is built back from its
// annotated schema and those its references lead to (Build). It is what
// decides the context a block's messages are mapped with (ForBlock), so
// jrpcld's graphs match the ones the published register describes.
//
// A Toolchain holds the work shared by the blocks of one register, so that
// each schema is read and each walk is made once (New, For). The contexts
// themselves are processed by package context (imported as ldctx).
package toolchain

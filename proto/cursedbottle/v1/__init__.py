"""The wire contract, version 1: modules generated from the .proto files beside this one
(`game_pb2`, `table_pb2`, `table_pb2_grpc`) when the package is built."""

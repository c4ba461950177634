package oracle_test

import (
	"context"
	"slices"
	"testing"

	reflectionpb "google.golang.org/grpc/reflection/grpc_reflection_v1"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/descriptorpb"

	"github.com/triage-eval/triage/internal/platform/servertest"
)

// TestReflection checks what grpcurl needs: the services are listed and the
// Oracle's descriptors resolve, with its method and request type.
func TestReflection(t *testing.T) {
	conn := servertest.Start(t, nil, oracleService())
	stream, err := reflectionpb.NewServerReflectionClient(conn).ServerReflectionInfo(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	ask := func(req *reflectionpb.ServerReflectionRequest) *reflectionpb.ServerReflectionResponse {
		t.Helper()
		if err := stream.Send(req); err != nil {
			t.Fatal(err)
		}
		resp, err := stream.Recv()
		if err != nil {
			t.Fatal(err)
		}
		return resp
	}
	list := ask(&reflectionpb.ServerReflectionRequest{MessageRequest: &reflectionpb.ServerReflectionRequest_ListServices{}})
	var names []string
	for _, s := range list.GetListServicesResponse().GetService() {
		names = append(names, s.GetName())
	}
	for _, want := range []string{"triage.v1.OracleService", "grpc.health.v1.Health", "grpc.reflection.v1.ServerReflection"} {
		if !slices.Contains(names, want) {
			t.Errorf("services %v lack %s", names, want)
		}
	}
	files := ask(&reflectionpb.ServerReflectionRequest{MessageRequest: &reflectionpb.ServerReflectionRequest_FileContainingSymbol{FileContainingSymbol: "triage.v1.OracleService"}})
	raw := files.GetFileDescriptorResponse().GetFileDescriptorProto()
	if len(raw) == 0 {
		t.Fatalf("no descriptors: %v", files)
	}
	fdp := &descriptorpb.FileDescriptorProto{}
	if err := proto.Unmarshal(raw[0], fdp); err != nil {
		t.Fatal(err)
	}
	if fdp.GetName() != "triage/v1/oracle.proto" || len(fdp.GetService()) != 1 || fdp.GetService()[0].GetMethod()[0].GetName() != "ComputeReferences" {
		t.Errorf("descriptor = %s", fdp.GetName())
	}
}

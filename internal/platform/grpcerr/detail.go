package grpcerr

import (
	"errors"

	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/protoadapt"
	"google.golang.org/protobuf/types/known/anypb"
)

// WithDetail returns the status error err (as ToStatus makes it) with d
// added to its details — the server's version stamp on every error it
// answers (SPEC §10) — unless err is nil, not a status (left as it is),
// or holds a detail of d's type already (a status relayed from another
// server keeps that server's). The cause a status keeps for the server's
// log stays, and a wrapper of such a status is dropped for the status
// itself, whose text alone grpc may send.
func WithDetail(err error, d protoadapt.MessageV1) error {
	var caused *causedStatus
	if errors.As(err, &caused) {
		err = caused // never a wrapper of one, whose text grpc would send
	}
	if err == nil || d == nil {
		return err
	}
	st, ok := status.FromError(err)
	if caused != nil {
		st, ok = caused.st, true
	}
	if !ok {
		return err
	}
	want, aerr := anypb.New(protoadapt.MessageV2Of(d))
	if aerr != nil {
		return err
	}
	for _, a := range st.Proto().GetDetails() {
		if a.GetTypeUrl() == want.GetTypeUrl() {
			return err
		}
	}
	withD, derr := st.WithDetails(d)
	if derr != nil {
		return err
	}
	if caused != nil {
		return &causedStatus{st: withD, cause: caused.cause}
	}
	return withD.Err()
}

package server

// drain begins a shutdown: health turns NOT_SERVING for every service (and
// for open Watch streams) while the server keeps accepting and serving calls
// for the drain period, so probes and load balancers see it leave before it
// refuses anything. Health stays NOT_SERVING from then on.
func (s *Server) drain() {
	s.health.Shutdown()
	if s.drainPeriod <= 0 {
		return
	}
	s.logger.Info("draining: health is NOT_SERVING, calls are still served", "drain", s.drainPeriod.String())
	select {
	case <-s.drainTimer(s.drainPeriod):
	case <-s.hurry:
	}
}

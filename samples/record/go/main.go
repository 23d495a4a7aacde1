// Command echo-agent is a minimal a2a-go (v2) agent used to record real A2A traffic.
//
// It is built and started by samples/record/record_a2a_go.py (see sdk_a2a_go.py):
//
//	echo-agent --port 8001 [--grpc-port 50051] --config plain|streaming|extcard --host a2a-go.example
//
// --host is the public host name the card advertises (http://HOST/a2a/... and, with
// gRPC, HOST:443); the recorder addresses the agent by it, one name per configuration,
// because a2alint compares a card with the answers at the authorities it lists.
//
// On 127.0.0.1:<port> it serves the agent card at /.well-known/agent-card.json, the
// JSON-RPC binding at /a2a/jsonrpc and the HTTP+JSON binding under /a2a/rest; with
// --grpc-port it also serves the gRPC binding (lf.a2a.v1.A2AService) on that port.
//
// The configurations set the card's capabilities, which the SDK's request handler is
// told to enforce (a2asrv.WithCapabilityChecks):
//
//	plain      streaming, push notifications and the extended card all off
//	streaming  streaming on (push and extended card off)
//	extcard    the card declares an extended card, but none is configured
//
// Every message gets a task: submitted -> working -> an artifact echoing the text ->
// completed. Some texts change that: "fail" ends the execution with an error once the
// task is working, "twice" emits the task object a second time after working, and
// "slow" waits five seconds (or until the call is given up) before the artifact.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"iter"
	"log"
	"net"
	"net/http"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/a2aproject/a2a-go/v2/a2a"
	a2agrpc "github.com/a2aproject/a2a-go/v2/a2agrpc/v1"
	"github.com/a2aproject/a2a-go/v2/a2asrv"
	"google.golang.org/grpc"
)

const (
	jsonrpcPath = "/a2a/jsonrpc"
	restPath    = "/a2a/rest"
)

type echoAgent struct{}

func userText(msg *a2a.Message) string {
	if msg == nil {
		return ""
	}
	text := ""
	for _, part := range msg.Parts {
		text += part.Text()
	}
	return text
}

func (echoAgent) Execute(ctx context.Context, ec *a2asrv.ExecutorContext) iter.Seq2[a2a.Event, error] {
	return func(yield func(a2a.Event, error) bool) {
		text := userText(ec.Message)
		task := ec.StoredTask
		if task == nil {
			task = a2a.NewSubmittedTask(ec, ec.Message)
			if !yield(task, nil) {
				return
			}
		}
		if !yield(a2a.NewStatusUpdateEvent(ec, a2a.TaskStateWorking, nil), nil) {
			return
		}
		switch text {
		case "fail":
			yield(nil, errors.New("the echo agent failed on purpose"))
			return
		case "twice":
			if !yield(task, nil) {
				return
			}
		case "slow":
			select {
			case <-time.After(5 * time.Second):
			case <-ctx.Done():
				yield(nil, ctx.Err())
				return
			}
		}
		artifact := a2a.NewArtifactEvent(ec, a2a.NewTextPart("echo: "+text))
		artifact.Artifact.Name = "echo"
		if !yield(artifact, nil) {
			return
		}
		yield(a2a.NewStatusUpdateEvent(ec, a2a.TaskStateCompleted, nil), nil)
	}
}

func (echoAgent) Cancel(ctx context.Context, ec *a2asrv.ExecutorContext) iter.Seq2[a2a.Event, error] {
	return func(yield func(a2a.Event, error) bool) {
		yield(a2a.NewStatusUpdateEvent(ec, a2a.TaskStateCanceled, nil), nil)
	}
}

func agentCard(config, host string, withGRPC bool) *a2a.AgentCard {
	// The card names public addresses on the recorder's host name, never this machine's port.
	publicBase := "http://" + host
	publicGRPC := host + ":443"
	interfaces := []*a2a.AgentInterface{
		a2a.NewAgentInterface(publicBase+jsonrpcPath, a2a.TransportProtocolJSONRPC),
		a2a.NewAgentInterface(publicBase+restPath, a2a.TransportProtocolHTTPJSON),
	}
	if withGRPC {
		interfaces = append(interfaces, a2a.NewAgentInterface(publicGRPC, a2a.TransportProtocolGRPC))
	}
	for _, iface := range interfaces {
		iface.ProtocolVersion = "1.0"
	}
	return &a2a.AgentCard{
		Name:                "Echo agent (a2a-go)",
		Description:         "Echoes the text it receives; used to record real A2A traffic.",
		Version:             "1.0.0",
		SupportedInterfaces: interfaces,
		Capabilities: a2a.AgentCapabilities{
			Streaming:         config == "streaming",
			PushNotifications: false,
			ExtendedAgentCard: config == "extcard",
		},
		DefaultInputModes:  []string{"text/plain"},
		DefaultOutputModes: []string{"text/plain"},
		Skills: []a2a.AgentSkill{{
			ID:          "echo",
			Name:        "Echo",
			Description: "Repeats the text of the message.",
			Tags:        []string{"echo"},
		}},
	}
}

func main() {
	port := flag.Int("port", 0, "HTTP port on 127.0.0.1 (card, JSON-RPC, HTTP+JSON)")
	grpcPort := flag.Int("grpc-port", 0, "gRPC port on 127.0.0.1 (0: no gRPC)")
	config := flag.String("config", "", "plain, streaming or extcard")
	host := flag.String("host", "", "public host name the card advertises")
	flag.Parse()
	if *port == 0 || *host == "" || (*config != "plain" && *config != "streaming" && *config != "extcard") {
		fmt.Fprintln(os.Stderr, "usage: echo-agent --port P [--grpc-port G] --config plain|streaming|extcard --host NAME")
		os.Exit(2)
	}

	card := agentCard(*config, *host, *grpcPort != 0)
	// No extended card is configured in any configuration: with extcard the card
	// declares one that the handler does not have.
	handler := a2asrv.NewHandler(echoAgent{}, a2asrv.WithCapabilityChecks(&card.Capabilities))

	mux := http.NewServeMux()
	mux.Handle(a2asrv.WellKnownAgentCardPath, a2asrv.NewStaticAgentCardHandler(card))
	mux.Handle(jsonrpcPath, a2asrv.NewJSONRPCHandler(handler))
	mux.Handle(restPath+"/", http.StripPrefix(restPath, a2asrv.NewRESTHandler(handler)))

	httpListener, err := net.Listen("tcp", fmt.Sprintf("127.0.0.1:%d", *port))
	if err != nil {
		log.Fatal(err)
	}
	httpServer := &http.Server{Handler: mux}
	go func() {
		if err := httpServer.Serve(httpListener); err != nil && !errors.Is(err, http.ErrServerClosed) {
			log.Fatal(err)
		}
	}()

	var grpcServer *grpc.Server
	if *grpcPort != 0 {
		grpcListener, err := net.Listen("tcp", fmt.Sprintf("127.0.0.1:%d", *grpcPort))
		if err != nil {
			log.Fatal(err)
		}
		grpcServer = grpc.NewServer()
		a2agrpc.NewHandler(handler).RegisterWith(grpcServer)
		go func() {
			if err := grpcServer.Serve(grpcListener); err != nil {
				log.Fatal(err)
			}
		}()
	}

	stop := make(chan os.Signal, 1)
	signal.Notify(stop, syscall.SIGTERM, syscall.SIGINT)
	<-stop
	if grpcServer != nil {
		grpcServer.Stop()
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	_ = httpServer.Shutdown(ctx)
}

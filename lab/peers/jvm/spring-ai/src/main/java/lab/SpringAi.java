// Client peer driver `spring-ai`: Spring AI 2.0.0's MCP client as its auto-configuration builds it (McpClientAutoConfiguration
// .mcpSyncClients: McpClient.sync on the Java SDK 2.0.0), in a minimal application context per session (no Spring Boot
// application, no web server): the session's own transport is the NamedClientMcpTransport bean, the form and sampling
// callbacks are @McpElicitation/@McpSampling methods that ClientMcpSyncHandlersRegistry finds, and an McpClientCustomizer
// sets the plan's capabilities, limits and roots. The callbacks' steps are the java-sync driver's (Sync.java); the nested
// request goes through the McpSyncClient the context hands out. Public API only: the auto-configurations, the
// annotations, McpClientCustomizer, NamedClientMcpTransport and the client bean.
// CLI: java -jar spring-ai.jar --plan PLAN.json --events EVENTS.jsonl, or --host (Host.java).
package lab;

import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.spec.McpSchema;
import java.util.List;
import java.util.Map;
import org.springframework.ai.mcp.annotation.McpElicitation;
import org.springframework.ai.mcp.annotation.McpSampling;
import org.springframework.ai.mcp.client.common.autoconfigure.McpClientAutoConfiguration;
import org.springframework.ai.mcp.client.common.autoconfigure.NamedClientMcpTransport;
import org.springframework.ai.mcp.client.common.autoconfigure.annotations.McpClientAnnotationScannerAutoConfiguration;
import org.springframework.ai.mcp.customizer.McpClientCustomizer;
import org.springframework.context.annotation.AnnotationConfigApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;
import org.springframework.core.env.MapPropertySource;

public final class SpringAi implements Main.Session {
  /** The connection's name: the transport's, and the clients the annotations name. */
  static final String CONNECTION = "lab";
  final Sync sync;
  final AnnotationConfigApplicationContext context = new AnnotationConfigApplicationContext();

  public static void main(String[] args) { Main.launch(args, "spring-ai driver", SpringAi::new); }

  @SuppressWarnings("unchecked")
  SpringAi(Main.Plan plan, Main.Events events, OwnStdio transport) {
    sync = new Sync(plan, events, transport, true);
    // initialized=false: the context builds the client and the driver initializes it in run(), as java-sync does
    // (McpClientAutoConfiguration.java:187-189 would otherwise initialize it during refresh, with no event around it)
    context.getEnvironment().getPropertySources().addFirst(new MapPropertySource("lab-plan", Map.of(
        "spring.ai.mcp.client.initialized", "false", "spring.ai.mcp.client.request-timeout", plan.callTimeoutMs() + "ms")));
    context.registerBean(Sync.class, () -> sync);
    context.register(Wiring.class);
    try {
      context.refresh();
      // the client Spring AI hands out: the one McpSyncClient of the mcpSyncClients bean, built for our one transport
      sync.client = ((List<McpSyncClient>) context.getBean("mcpSyncClients", List.class)).get(0);
    } catch (RuntimeException e) {
      context.close();
      throw e;
    }
  }

  /** The application's beans, and the two auto-configurations spring-ai-starter-mcp-client registers for a sync client. */
  @Configuration(proxyBeanMethods = false)
  @Import({McpClientAutoConfiguration.class, McpClientAnnotationScannerAutoConfiguration.class})
  static class Wiring {
    /** The session's stdin/stdout as the app's one connection: mcpSyncClients builds a client per named transport
     *  (McpClientAutoConfiguration.java:155-164). */
    @Bean List<NamedClientMcpTransport> labTransport(Sync s) { return List.of(new NamedClientMcpTransport(CONNECTION, s.transport)); }
    /** Runs after the registry's handlers and capabilities are set (McpClientAutoConfiguration.java:168-183): the plan's
     *  capabilities replace the registry's (it declares elicitation and sampling for any annotated client, never roots). */
    @Bean McpClientCustomizer<McpClient.SyncSpec> labPlan(Sync s) { return (name, spec) -> s.declare(spec); }
    @Bean Handlers labHandlers(Sync s) { return new Handlers(s); }
  }

  /** The callbacks as a Spring AI app writes them: an annotated method gets only the request
   *  (AbstractMcpElicitationMethodCallback.java:88-116), so a nested request goes through the client bean. */
  static class Handlers {
    final Sync s;
    Handlers(Sync s) { this.s = s; }
    // the SDK hands the form handler an ElicitFormRequest (McpClient.java:322); the registry passes that very object on
    @McpElicitation(clients = CONNECTION)
    public McpSchema.ElicitResult form(McpSchema.ElicitRequest request) { return s.elicitation((McpSchema.ElicitFormRequest) request); }
    @McpSampling(clients = CONNECTION)
    public McpSchema.CreateMessageResult sample(McpSchema.CreateMessageRequest request) { return s.sampling(request); }
  }

  public void run() throws Exception { sync.run(); }

  @Override public void close() {
    sync.close();
    context.close(); // CloseableMcpSyncClients closes the client (McpClientAutoConfiguration.java:310-316)
  }
}

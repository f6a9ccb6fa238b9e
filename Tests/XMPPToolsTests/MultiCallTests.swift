import XCTest
@testable import XMPPTools

/// The one program finds its tools by the names listed beside them, without building the others.
final class MultiCallTests: XCTestCase {
    func testEveryListedNameIsItsToolsName() {
        XCTAssertEqual(AllSpecs.programs.map { $0.tool().spec.name }, AllSpecs.programs.map(\.name))
        XCTAssertEqual(AllSpecs.tools.map(\.name), MultiCall.names)
    }

    func testToolsAreFoundByNameOrPath() {
        XCTAssertEqual(MultiCall.tool(named: "xmpp-roster")?.spec.name, "xmpp-roster")
        XCTAssertEqual(MultiCall.tool(named: "/usr/bin/xmpp-login")?.spec.name, "xmpp-login")
        XCTAssertNil(MultiCall.tool(named: "xmpp-tools"))
        XCTAssertNil(MultiCall.tool(named: "xmpp-rost"))
    }
}

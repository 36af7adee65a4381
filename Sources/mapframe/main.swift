import Foundation
import MapFrameCLI

exit(MapFrameCommand.main(arguments: Array(CommandLine.arguments.dropFirst())))

/// Every template MapFrame says, by the module that says it. Each language's table
/// (`BritishEnglish`, `Swedish`) has one for every key. A module with sentences of its own adds
/// its keys here, under a heading of its own, and their templates to every table.
public enum PhraseKey: String, CaseIterable, Hashable, Sendable, Codable {
    // MARK: Measures, lists and directions (Voice)
    case metres, kilometres, yards, miles, lessThanFive, minutes, hours, hoursAndMinutes, listLast
    case north, northEast, east, southEast, south, southWest, west, northWest
    case headingNorth, headingNorthEast, headingEast, headingSouthEast, headingSouth, headingSouthWest, headingWest, headingNorthWest
    case atClock
    case goesStraightOn, bearsLeft, bearsRight, turnsLeft, turnsRight, turnsSharpLeft, turnsSharpRight, turnsBack

    // MARK: The map's elements (MapRender)
    case startMarker, finishMarker, route, stageOf, photo, photoCaptioned, location, attribution
    case marker, markerLabelled, markerWithDot, markerWithStar, markerWithPlus, path

    // MARK: Public transport (Transit)
    case modeTram, modeMetro, modeTrain, modeBus, modeCoach, modeFerry, modeCableTram, modeCableCar, modeFunicular, modeTrolleybus, modeMonorail
    case lineNumbered, lineTowards, lineBeforeYourStop
    case stopPassed, stopYours, stopBoard, transferTo, stopAlightToTransfer, stopTransfer, stopAlight
    case vehicle, vehicleWaitingAt, vehicleAt, vehicleBetween, vehicleAtEnd
    case vehicleReachedEnd, vehiclePassedYourStop, vehicleNotLeftYourStop, vehicleAtYourStop, vehicleAtYourStopToAlight
    case vehicleNotLeft, vehicleIsAt, vehicleBetweenYourStop, vehicleIsBetween
    case arrives, arrivesAtStopBefore, arrivesAfterStops
    case capitalised

    // MARK: Real time, disturbances and departure boards (Transit)
    case onTime, minutesLate, minutesEarly, minLate, minEarly
    case tripCancelled, skipsYourStop, stopSkipped, extraTrip, lineEstimated, matchedByRoute, matchedByRouteReportedOn
    case vehicleLateNotLeftYourStop, vehicleLateNotLeft, vehicleLateAtYourStop, vehicleLateAtYourStopToAlight
    case vehicleLateIsAt, vehicleLateBetweenYourStop, vehicleLateIsBetween
    case disturbance, disturbanceOn, disturbances
    case columnLine, columnDestination, columnDeparts, columnMin, columnMinutesToGo
    case boardSubtitle, board, noDepartures, minutesNow, minutesAbout, nowLive, nowByTimetable, inLive, inAboutByTimetable
    case cancelledRow, skippedRow, extraRow, cancelledRowSpoken, skippedRowSpoken, extraRowSpoken
    case headway, everyMinute, everyMinutes, destinationWithNote
    case tableCell

    // MARK: The app's screens (PhoneScreen)
    case planRoute, itinerary, photomap, addPhoto, more, tab, tabSelected
    case findMyLocation, placefinder, stepBack, zoomIn, zoomOut, previousStage, nextStage
    case findingYourLocation, unavailable, selected, button, setStart, setFinish, newRoute, statusBar, done
    case dialog, dialogWithMessage, screenBehindDialog, dialogButton, itineraryOf, itineraryRow, photoViewOf, captioned

    // MARK: Hit answers and descriptions (FrameExplain)
    case map, toolbar, routeStage, sentence
    case shortMap, shortMapShowing, shortMapWithNotices, shortMapShowingWithNotices, shortDialogOver, mapAcross
    case showStartAndFinishMarkers, showStartMarker, showFinishMarker, showAStartMarker, showAFinishMarker
    case showRoute, showRouteFromTo, showRouteWith, showTransit, showTransitAndVehicle, showStage, showAPhoto, showPhotos, showYourLocation
    case placedAtCentre, placedFromCentre, placedOffScreen, placedFromViewpoint, placedOffScreenFromViewpoint, placedAtViewpoint
    case viewpointStart, viewpointLocation, viewpointPoint
    case routeLength, routeLengthInParts, journeyRoute
    case courseSentence, courseFirstOn, courseFirst, courseTurnOnto, courseTurnHeading
    case edgeTop, edgeBottom, edgeLeft, edgeRight, cornerTopLeft, cornerTopRight, cornerBottomLeft, cornerBottomRight
    case areaTopLeft, areaTop, areaTopRight, areaLeft, areaMiddle, areaRight, areaBottomLeft, areaBottom, areaBottomRight
    case routeStartsEnds, routeEntersLeaves, routeStartsLeaves, routeEntersEnds, routeLeavesAndReturns, routeOutside
    case relation, relationSamePlace, theStart, theFinish, yourLocation, theVehicle
    case transitLines, toolbarSentence, tabsSentence, dialogNoButtons, dialogButtons, behindDialog
    case tableShape, tableRow, tableRowCell, tableShort, tableShortWithNotices

    // MARK: The explorable frame (FrameExplain)
    case explorerMove, explorerSamePlace, explorerNothing, explorerHelp, explorerName, descriptionHeading, elementsHeading
}
